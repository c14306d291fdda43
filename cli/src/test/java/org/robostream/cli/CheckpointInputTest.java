package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.policy.PolicyConfig;
import org.robostream.testing.Datasets;
import org.robostream.torch.policy.PolicyTrainer;

/**
 * A checkpoint is input (issue 24): every field of {@code dataset_state.json} and {@code
 * trainer_state.json} is type-checked and bounded before use, and the policy's files are read with
 * errors naming the file. The fuzz takes one real checkpoint (a short training run) and resumes
 * from mutated copies of it: each resume ends in an error naming the file (and the field), never an
 * OutOfMemoryError, a negative flag the user never passed, "robostream: null", or a hint about
 * --batch-size for a state that is simply wrong. Before: {@code "workers": 2147483647} ended in
 * OutOfMemoryError, a huge {@code buffer_size} in "--buffer-size ... got -727379968", a garbage
 * policy file in "robostream: null".
 */
class CheckpointInputTest {
  @TempDir static Path tmp;
  private static Path checkpoint;

  private static String[] train(Path out, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--root",
                Datasets.patternV30().toString(),
                "--batch-size",
                "6",
                "--buffer-size",
                "20",
                "--n-action-steps",
                "3",
                "--steps",
                "6",
                "--save-freq",
                "5",
                "--output-dir",
                out.toString()));
    args.addAll(Arrays.asList(more));
    return args.toArray(String[]::new);
  }

  @BeforeAll
  static void trainOnce() {
    Path out = tmp.resolve("run");
    String err = BenchCliTest.captureErr(() -> assertEquals(0, Main.run(train(out))));
    checkpoint = out.resolve("checkpoint-5");
    assertTrue(Files.isRegularFile(checkpoint.resolve("rank0/dataset_state.json")), err);
    // The same policy predicting 4 action steps instead of 3: weights of another shape.
    Path other = tmp.resolve("other");
    List<String> args = new ArrayList<>(Arrays.asList(train(other)));
    args.set(args.indexOf("--n-action-steps") + 1, "4");
    String err2 =
        BenchCliTest.captureErr(() -> assertEquals(0, Main.run(args.toArray(String[]::new))));
    otherWeights = other.resolve("checkpoint-5/rank0/policy/model.safetensors");
    assertTrue(Files.isRegularFile(otherWeights), err2);
  }

  private static Path otherWeights;

  private static UnaryOperator<byte[]> otherShapes() {
    return b -> {
      try {
        return Files.readAllBytes(otherWeights);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }

  /** One mutation: the file it changes, how, and what the error must say besides the file. */
  private record Mutation(String name, String file, UnaryOperator<byte[]> change, String says) {}

  private static UnaryOperator<byte[]> replace(String from, String to) {
    return b -> {
      String text = new String(b, StandardCharsets.UTF_8);
      assertTrue(text.contains(from), from + " in " + text);
      return text.replaceFirst(java.util.regex.Pattern.quote(from), to)
          .getBytes(StandardCharsets.UTF_8);
    };
  }

  /**
   * Replaces the first match of {@code regex}, which must match: else the mutation tests nothing.
   */
  private static UnaryOperator<byte[]> replaceRegex(String regex, String to) {
    return b -> {
      String text = new String(b, StandardCharsets.UTF_8);
      assertTrue(
          java.util.regex.Pattern.compile(regex).matcher(text).find(), regex + " in " + text);
      return text.replaceFirst(regex, to).getBytes(StandardCharsets.UTF_8);
    };
  }

  private static UnaryOperator<byte[]> cut() {
    return b -> Arrays.copyOf(b, b.length / 2);
  }

  private static UnaryOperator<byte[]> garbage() {
    return b -> {
      byte[] g = new byte[Math.max(64, b.length)];
      new java.util.Random(b.length).nextBytes(g);
      return g;
    };
  }

  private static String manySegments(int n) {
    StringBuilder s = new StringBuilder("\"segments\":[");
    for (int i = 0; i < n; i++) {
      s.append(i == 0 ? "" : ",").append("{\"world\":1,\"workers\":2,\"batches\":0}");
    }
    return s.append("],").toString();
  }

  private static final String STATE = "rank0/dataset_state.json";
  private static final String TRAINER = "rank0/trainer_state.json";

  private static List<Mutation> mutations() {
    return List.of(
        new Mutation(
            "workers huge",
            STATE,
            replace("\"workers\":2", "\"workers\":2147483647"),
            "segments[0].workers must be a whole number from 1 to 4096, got 2147483647"),
        new Mutation(
            "batches huge",
            STATE,
            replace("\"batches\":", "\"batches\":1000000000000" + ", \"x\":"),
            "segments[0].batches must be a whole number from 0 to 2147483647"),
        new Mutation(
            "buffer_size huge",
            STATE,
            replace("\"buffer_size\":20", "\"buffer_size\":3000000000"),
            "buffer_size must be a whole number from 1 to" + " 2147483647, got 3000000000"),
        new Mutation(
            "5,000 segments",
            STATE,
            replaceRegex("\"segments\":\\[[^\\]]*\\],", manySegments(5_000)),
            "segments has 5000 entries; at most 4096"),
        new Mutation(
            "200,000 segments",
            STATE,
            replaceRegex("\"segments\":\\[[^\\]]*\\],", manySegments(200_000)),
            "bytes; at most 4194304 are read"),
        new Mutation(
            "epoch a string",
            STATE,
            replaceRegex("\"epoch\":\\d+", "\"epoch\":\"one\""),
            "epoch must be a whole number from 0 to 9007199254740991, got a string"),
        new Mutation(
            "seed a fraction",
            STATE,
            replaceRegex("\"seed\":\\d+", "\"seed\":1.5"),
            "seed must be a whole number"),
        new Mutation("state cut", STATE, cut(), "is not JSON"),
        new Mutation("state garbage", STATE, garbage(), "is not"),
        new Mutation(
            "step negative",
            TRAINER,
            replaceRegex("\"step\" ?: ?\\d+", "\"step\":-4"),
            "step must be a whole number from 0"),
        new Mutation("trainer cut", TRAINER, cut(), "is not JSON"),
        new Mutation("trainer garbage", TRAINER, garbage(), "is not"),
        new Mutation("policy.json cut", "rank0/policy/policy.json", cut(), "policy configuration"),
        new Mutation(
            "weights garbage",
            "rank0/policy/model.safetensors",
            garbage(),
            "is not a policy's weights"),
        new Mutation(
            "weights cut", "rank0/policy/model.safetensors", cut(), "is not a policy's weights"),
        new Mutation(
            "weights of another shape", "rank0/policy/model.safetensors", otherShapes(), ", not ["),
        new Mutation("optimizer garbage", "rank0/policy/optimizer.safetensors", garbage(), ""),
        new Mutation("optimizer cut", "rank0/policy/optimizer.safetensors", cut(), ""));
  }

  @Test
  void everyMutatedCheckpointIsATypedErrorNamingTheFileAndField() throws Exception {
    int n = 0;
    for (Mutation m : mutations()) {
      Path copy = tmp.resolve("mutated-" + n++).resolve("checkpoint-5");
      copyTree(checkpoint, copy);
      Path file = copy.resolve(m.file());
      Files.write(file, m.change().apply(Files.readAllBytes(file)));
      int[] code = new int[1];
      String err =
          BenchCliTest.captureErr(
              () ->
                  code[0] =
                      Main.run(
                          train(
                              copy.getParent().resolve("out"), "--resume-from", copy.toString())));
      String where = m.name() + ": " + err;
      assertNotEquals(0, code[0], where);
      assertTrue(err.contains(file.getFileName().toString()), "names the file: " + where);
      assertTrue(err.contains(m.says()), where);
      for (String never :
          List.of("robostream: null", "OutOfMemoryError", "--buffer-size", "--batch-size")) {
        assertFalse(err.contains(never), never + " in " + where);
      }
    }
    System.out.println("checkpoint fuzz: " + n + " mutated checkpoints, each a typed error");
  }

  /**
   * 1,000 random mutations of the checkpoint's files (a byte changed, bytes inserted or removed,
   * the file cut), each loaded as a resume loads it: the position, the step, the trainer state and
   * the policy with its optimizer. Each is refused with an error naming the file (a {@code step}
   * file that disagrees: the trainer state's file, saying so), or loads when the change did not
   * matter (a byte of a weight); never another exception, never a crash.
   */
  @Test
  void aThousandRandomMutationsAreEachRefusedNamingTheFileOrHarmless() throws Exception {
    Path copy = tmp.resolve("random").resolve("checkpoint-5");
    copyTree(checkpoint, copy);
    List<Path> files;
    try (var paths = Files.walk(copy)) {
      files = paths.filter(Files::isRegularFile).sorted().toList();
    }
    PolicyConfig config = PolicyConfig.load(copy.resolve("rank0/policy/policy.json"));
    java.util.Random random = new java.util.Random(36);
    int refused = 0;
    for (int i = 0; i < 1000; i++) {
      Path file = files.get(random.nextInt(files.size()));
      byte[] good = Files.readAllBytes(file);
      Files.write(file, mutate(good, random));
      try {
        load(copy, config);
      } catch (java.io.IOException
          | org.robostream.RobostreamException
          | IllegalArgumentException e) {
        String m = String.valueOf(e.getMessage());
        boolean named =
            m.contains(file.getFileName().toString())
                || (file.getFileName().toString().equals("step") && m.contains("step"));
        assertTrue(named, "mutation " + i + " of " + file + ": " + m);
        assertFalse(m.contains("robostream: null") || m.equals("null"), m);
        refused++;
      } finally {
        Files.write(file, good);
      }
    }
    load(copy, config); // put back, it loads
    System.out.println("checkpoint random fuzz: 1000 mutations, " + refused + " refused");
    assertTrue(refused > 300, "most mutations are refused: " + refused);
  }

  private static byte[] mutate(byte[] b, java.util.Random random) {
    int at = b.length == 0 ? 0 : random.nextInt(b.length);
    switch (random.nextInt(4)) {
      case 0 -> { // one byte changed
        byte[] out = b.clone();
        if (out.length > 0) {
          out[at] = (byte) random.nextInt(256);
        }
        return out;
      }
      case 1 -> { // bytes inserted
        byte[] extra = new byte[1 + random.nextInt(16)];
        random.nextBytes(extra);
        byte[] out = new byte[b.length + extra.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(b, at, out, at + extra.length, b.length - at);
        return out;
      }
      case 2 -> { // bytes removed
        int n = Math.min(b.length - at, 1 + random.nextInt(16));
        byte[] out = new byte[b.length - n];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + n, out, at, b.length - at - n);
        return out;
      }
      default -> {
        return Arrays.copyOf(b, at); // cut
      }
    }
  }

  /** What a resume reads of {@code dir}, in its order. */
  private static void load(Path dir, PolicyConfig config) throws java.io.IOException {
    org.robostream.train.Checkpoint.resume(
        dir,
        org.robostream.stream.StreamingDataset.builder(Datasets.patternV30())
            .batchSize(6)
            .bufferSize(20));
    try (PolicyTrainer t =
        PolicyTrainer.restore(
            org.robostream.train.Checkpoint.policyDir(dir, 0),
            config,
            PolicyTrainer.device("cpu"),
            org.robostream.torch.dist.DataParallel.single())) {
      assertTrue(t.optimizerSteps() >= 0);
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var paths = Files.walk(from)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
