package org.robostream.cli;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.GpuUnavailableException;
import org.robostream.RobostreamException;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.hub.HubConfig;
import org.robostream.hub.HubDataset;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.nativecore.Cuda;
import org.robostream.nativecore.NativeResources;
import org.robostream.source.ByteSource;
import org.robostream.source.ContentKind;
import org.robostream.source.VideoSources;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.Device;
import org.robostream.video.VideoDecoderOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code robostream diagnose}: the environment (with the CUDA driver version when a driver is
 * installed), then the first video of a dataset checked step by step (path, first bytes, open,
 * decode frame 0 on the CPU and, with {@code --video-decode-device cuda}, with NVDEC into a CUDA
 * batch copied back and compared), with the likely cause when a step fails. Exit 0 when every step
 * passed, 1 otherwise.
 */
@Command(
    name = "diagnose",
    mixinStandardHelpOptions = true,
    description = "Check the environment and decode frame 0 of a dataset's first video.")
final class DiagnoseCommand implements Callable<Integer> {
  @Mixin DatasetOptions dataset;

  @Option(
      names = {"--video-decode-device", "--video_decode_device"},
      defaultValue = "cpu",
      description =
          "also decode frame 0 there and compare it with the CPU's: cuda[:N] (NVDEC;"
              + " a failure without a usable GPU) or cuda-or-cpu[:N]")
  String device;

  @Override
  public Integer call() throws Exception {
    DecodeDeviceSpec spec = DecodeDeviceSpec.parse(device); // a typo: exit 2 before any check
    System.out.println("== environment");
    System.out.println(
        "java          "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.arch")
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " cores)");
    System.out.println("robostream    " + new VersionProvider().getVersion()[0]);
    System.out.println("native core   " + NativeResources.coreVersion());
    System.out.println(
        "ffmpeg        "
            + avutil.av_version_info().getString()
            + " (JavaCPP build inside robostream)");
    System.out.println(
        "dav1d         "
            + (Av1Decoder.isAvailable()
                ? Av1Decoder.libraryVersion()
                : "unavailable: "
                    + Av1Decoder.unavailabilityCause()
                    + " (AV1 falls back to libaom-av1, 1.5-3x slower; install libdav1d6)"));
    System.out.println(
        "cuda          "
            + (Cuda.isAvailable()
                ? Cuda.deviceCount() + " device(s)"
                : "unavailable: "
                    + Cuda.unavailabilityCause()
                    + (Cuda.compiledWithCuda() ? "" : " (built without nvcc)")));
    String driver = Cuda.driverVersion();
    System.out.println(
        "cuda driver   "
            + (driver != null ? driver : "unavailable: " + Cuda.unavailabilityCause()));
    System.out.println(
        "nvdec         "
            + (Cuda.nvdecAvailable(0)
                ? "available on cuda:0"
                : "unavailable: " + Cuda.nvdecUnavailabilityCause(0)));

    String hubLocation = dataset.hubLocation();
    if (hubLocation != null) {
      HubConfig config = HubConfig.fromEnvironment(HubCacheDefault.apply(System.getenv()));
      System.out.println(
          "== hub " + hubLocation + " at " + config.endpoint() + " (" + config.tokenOrigin() + ")");
    } else {
      System.out.println("== dataset " + dataset.localRoot(50, 200));
    }
    DatasetSource opened;
    try {
      opened = dataset.open(50, 200);
    } catch (RobostreamException e) {
      System.out.println("FAIL  metadata: " + OptionFlags.inMessage(e.getMessage()));
      return 1;
    }
    HubDataset hub = opened instanceof HubDataset h ? h : null;
    if (hub != null) {
      System.out.println(
          "ok    revision " + hub.revision().describe() + ", files from " + hub.files());
    }
    LeRobotMetadata m = opened.metadata();
    System.out.printf(
        Locale.ROOT,
        "ok    LeRobot %s, %d fps, %d episodes, cameras %s%n",
        m.info().codebaseVersion(),
        m.info().fps(),
        m.episodes().size(),
        m.cameras());
    // A colour video: depth maps always decode on the CPU and have no RGB frame to compare.
    List<String> colour = new ArrayList<>(m.videoCameras());
    colour.removeAll(m.depthCameras());
    if (colour.isEmpty() || m.episodes().isEmpty()) {
      System.out.println("ok    no colour video to check");
      return 0;
    }
    EpisodeInfo e = m.episodes().get(0);
    String camera = colour.get(0);
    Path video = e.video(camera).file();
    VideoSources videos = opened.videos();
    System.out.println(
        "      episode "
            + e.index()
            + ", camera "
            + camera
            + " → "
            + (hub != null ? hub.urlOf(video) : video));
    // Opening checked that the file is there (locally; a Hub file is read next).
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
    ContentKind kind = ContentKind.of(head, head.length);
    if (kind != ContentKind.MP4) {
      System.out.println("FAIL  not an MP4: " + notMp4(kind));
      return 1;
    }
    System.out.println("ok    an ftyp box: an MP4 file");
    FrameZero.Decoded cpu;
    try (BatchMemoryPool host = BatchMemoryPool.host()) {
      cpu = FrameZero.decode(videos, video, VideoDecoderOptions.defaults(), host);
    } catch (RobostreamException ex) {
      System.out.println("FAIL  " + ex.getMessage());
      return 1;
    }
    var info = cpu.info();
    System.out.printf(
        Locale.ROOT,
        "ok    opened: %s %dx%d %s, %d frames, %.2f fps, decoder %s%n",
        info.codec(),
        info.width(),
        info.height(),
        info.pixelFormat(),
        info.frameCount(),
        info.averageFps(),
        cpu.backend());
    if (info.codec().equals("av1")) {
      System.out.println(
          "note  AV1 has no NVDEC support on Turing, A100 (GA100) and Hopper"
              + " (H100/H200): on those GPUs AV1 decodes on the CPU (dav1d); re-encode to H.264 or"
              + " HEVC for GPU decoding");
    }
    System.out.printf(Locale.ROOT, "ok    decoded frame 0 on the CPU in %.1f ms%n", cpu.millis());
    return spec.device() == Device.CUDA ? checkGpu(spec, videos, video, cpu.rgb()) : 0;
  }

  /**
   * Frame 0 again on the requested GPU, compared with the CPU's: 0 when it decodes there (or a
   * cuda-or-cpu request falls back, as the loader would), 1 when a cuda request cannot run.
   */
  private static int checkGpu(
      DecodeDeviceSpec spec, VideoSources videos, Path video, byte[] cpuFrame) {
    DecodeDeviceSpec.Resolution resolution;
    try {
      resolution = spec.resolve();
    } catch (GpuUnavailableException e) {
      System.out.println("FAIL  " + OptionFlags.inMessage(e.getMessage()));
      return 1;
    }
    if (resolution.fellBack()) {
      System.out.println(
          "note  --video-decode-device "
              + spec
              + " decodes on the CPU here: "
              + resolution.fallbackReason());
      return 0;
    }
    int gpu = spec.index();
    try (BatchMemoryPool pool = BatchMemoryPool.cuda(gpu)) {
      FrameZero.Decoded decoded =
          FrameZero.decode(videos, video, VideoDecoderOptions.defaults().withCudaDevice(gpu), pool);
      if (decoded.rgb() == null) {
        System.out.println(
            "note  NVDEC on cuda:"
                + gpu
                + " cannot decode this file ("
                + decoded.cpuFallbackReason()
                + "): the loader decodes such files on the CPU,"
                + " counted in cpu_fallbacks");
        return 0;
      }
      double[] diff = FrameZero.difference(cpuFrame, decoded.rgb());
      // The GPU colour kernel and swscale round differently by a level or two; more is wrong.
      boolean same = diff[1] <= 4;
      System.out.printf(
          Locale.ROOT,
          "%s decoded frame 0 on cuda:%d (%s) in %.1f ms; differs"
              + " from the CPU frame by at most %.0f levels, %.2f on average%n",
          same ? "ok   " : "FAIL ",
          gpu,
          decoded.backend(),
          decoded.millis(),
          diff[0],
          diff[1]);
      return same ? 0 : 1;
    } catch (RobostreamException ex) {
      System.out.println("FAIL  NVDEC on cuda:" + gpu + ": " + ex.getMessage());
      return 1;
    }
  }

  /** What a file that is not an MP4 is, and the usual way to get the real file. */
  private static String notMp4(ContentKind kind) {
    return switch (kind) {
      case EMPTY -> "an empty file (truncated download?)";
      case HTML ->
          "HTML (an error or login page instead of the file: check the token, revision or"
              + " URL)";
      case JSON -> "JSON (an API error instead of the file: check the token, revision or URL)";
      case GIT_LFS_POINTER -> "a Git LFS pointer (the file was never fetched: git lfs pull)";
      case GIT_ANNEX_POINTER -> "a git-annex pointer (the file was never fetched: git annex get)";
      case MATROSKA -> "Matroska/WebM, not MP4 (LeRobot writes MP4)";
      default -> "unknown content (neither MP4 nor a known placeholder)";
    };
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) {
      s.append(String.format("%02x", b & 0xFF));
    }
    return s.toString();
  }
}
