package org.robostream.cli;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.RobostreamException;
import org.robostream.bench.DefaultDataset;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.nativecore.Cuda;
import org.robostream.nativecore.NativeResources;
import org.robostream.source.ByteSource;
import org.robostream.source.VideoSources;
import org.robostream.source.hub.HubConfig;
import org.robostream.source.hub.HubDataset;
import org.robostream.source.hub.HubHttp;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.HostFrameBuffer;
import org.robostream.video.VideoDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code robostream diagnose}: the environment, then the first video of a dataset checked step by
 * step (path, first bytes, open, decode frame 0), with the likely cause when a step fails. Exit 0
 * when every step passed, 1 otherwise.
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
    description = "Check the environment and decode frame 0 of a dataset's first video.")
final class DiagnoseCommand implements Callable<Integer> {
  @Option(names = "--root", description = "dataset root (default: the built-in dataset), or a"
      + " Hub dataset as hf://datasets/OWNER/NAME[@REVISION]")
  String rootArgument;

  @Option(names = {"--repo-id", "--repo_id"}, description = "a Hub dataset (from HF_ENDPOINT)")
  String repoId;

  @Option(names = "--revision") String revision;

  @Option(names = {"--data-files-root", "--data_files_root"},
      description = "local directory, or hf://buckets/... with --repo-id")
  String dataFilesRoot;

  @Option(names = {"--video-decode-device", "--video_decode_device"}, defaultValue = "cpu")
  String device;

  @Override
  public Integer call() throws Exception {
    System.out.println("== environment");
    System.out.println("java          " + System.getProperty("java.version") + " ("
        + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", "
        + Runtime.getRuntime().availableProcessors() + " cores)");
    System.out.println("robostream    " + new VersionProvider().getVersion()[0]);
    System.out.println("native core   " + NativeResources.coreVersion());
    System.out.println("ffmpeg        " + avutil.av_version_info().getString()
        + " (JavaCPP build inside robostream)");
    System.out.println("dav1d         " + (Av1Decoder.isAvailable() ? Av1Decoder.libraryVersion()
        : "unavailable: " + Av1Decoder.unavailabilityCause()
            + " (AV1 falls back to libaom-av1, 1.5-3x slower; install libdav1d6)"));
    System.out.println("cuda          " + (Cuda.isAvailable() ? Cuda.deviceCount() + " device(s)"
        : "unavailable: " + Cuda.unavailabilityCause()
            + (Cuda.compiledWithCuda() ? "" : " (built without nvcc)")));
    System.out.println("nvdec         " + (Cuda.nvdecAvailable(0) ? "available on cuda:0"
        : "unavailable: " + Cuda.nvdecUnavailabilityCause(0)));

    Device d = DecodeDeviceSpec.parse(device).device();
    org.robostream.source.hub.HubLocation hubRoot = HubRoot.of(rootArgument, repoId, revision);
    if (hubRoot != null) {
      repoId = hubRoot.id();
      revision = hubRoot.revision();
    }
    Path root = HubRoot.local(rootArgument);
    LeRobotMetadata m;
    HubDataset hub = null;
    if (repoId != null) {
      HubConfig config = HubConfig.fromEnvironment();
      System.out.println("== hub " + repoId + " at " + config.endpoint() + " ("
          + config.tokenOrigin() + ")");
      try {
        hub = HubDataset.prepare(new HubHttp(config), repoId, revision, dataFilesRoot,
            Optional.empty(), f -> { });
      } catch (RobostreamException e) {
        System.out.println("FAIL  metadata: " + e.getMessage());
        return 1;
      }
      System.out.println("ok    revision " + hub.revision().describe() + ", files from "
          + hub.files());
      m = hub.metadata();
    } else {
      Path dataset = root != null ? root : DefaultDataset.ensure(50, 200);
      System.out.println("== dataset " + dataset);
      try {
        m = LeRobotMetadata.open(dataset, dataFilesRoot != null ? Path.of(dataFilesRoot)
            : dataset, Optional.empty());
      } catch (RobostreamException e) {
        System.out.println("FAIL  metadata: " + e.getMessage());
        return 1;
      }
    }
    System.out.printf(Locale.ROOT, "ok    LeRobot %s, %d fps, %d episodes, cameras %s%n",
        m.info().codebaseVersion(), m.info().fps(), m.episodes().size(), m.info().videoKeys());
    if (m.info().videoKeys().isEmpty() || m.episodes().isEmpty()) {
      System.out.println("ok    no video to check");
      return 0;
    }
    EpisodeInfo e = m.episodes().get(0);
    String camera = m.info().videoKeys().get(0);
    Path video = e.video(camera).file();
    VideoSources videos = hub != null ? hub.videos() : VideoSources.local();
    System.out.println("      episode " + e.index() + ", camera " + camera + " → "
        + (hub != null ? hub.urlOf(video) : video));
    if (hub == null && !Files.isRegularFile(video)) {
      System.out.println("FAIL  the file does not exist (a partial copy? another data root?)");
      return 1;
    }
    byte[] head;
    try (ByteSource source = videos.open(video)) {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      source.read(0, buffer);
      head = java.util.Arrays.copyOf(buffer.array(), buffer.position());
    } catch (RobostreamException ex) {
      // The Hub source itself refuses an HTML or JSON page and names the cause.
      System.out.println("FAIL  " + ex.getMessage());
      return 1;
    }
    System.out.println("      first bytes " + hex(head));
    String verdict = MediaSignature.describe(head);
    if (!verdict.equals("mp4")) {
      System.out.println("FAIL  not an MP4: " + verdict);
      return 1;
    }
    System.out.println("ok    an ftyp box: an MP4 file");
    if (d == Device.CUDA) {
      System.out.println("note  the streaming loader does not drive NVDEC yet; checking the CPU"
          + " path instead");
    }
    try (VideoDecoder decoder = VideoDecoder.open(videos.open(video),
        org.robostream.video.VideoDecoderOptions.defaults())) {
      var info = decoder.info();
      System.out.printf(Locale.ROOT, "ok    opened: %s %dx%d %s, %d frames, %.2f fps, decoder %s%n",
          info.codec(), info.width(), info.height(), info.pixelFormat(), info.frameCount(),
          info.averageFps(), decoder.backendDescription());
      if (info.codec().equals("av1")) {
        System.out.println("note  AV1 has no NVDEC support on Turing, A100 (GA100) and Hopper"
            + " (H100/H200): on those GPUs AV1 decodes on the CPU (dav1d); re-encode to H.264 or"
            + " HEVC for GPU decoding");
      }
      HostFrameBuffer one = HostFrameBuffer.forVideo(info, 1, FrameLayout.HWC);
      long t0 = System.nanoTime();
      decoder.decodeFrames(new int[] {0}, one);
      System.out.printf(Locale.ROOT, "ok    decoded frame 0 in %.1f ms%n",
          (System.nanoTime() - t0) / 1e6);
    } catch (RobostreamException ex) {
      System.out.println("FAIL  " + ex.getMessage());
      return 1;
    }
    return 0;
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) {
      s.append(String.format("%02x", b & 0xFF));
    }
    return s.toString();
  }
}
