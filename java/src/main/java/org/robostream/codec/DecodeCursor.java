package org.robostream.codec;

import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.DecodeStats;
import org.robostream.video.UnsupportedVideoException;

/**
 * Where one file's decoding stands, and how a {@link DecodePlan} moves it: one state machine over
 * the demuxer and the backend, in one class because every rule reads and writes the same position.
 *
 * <p>A target is reached without a seek when it was not output yet and lies in the GOP being
 * decoded, or in the GOP that starts with the next packet; otherwise one seek to its GOP (the one
 * before for leading pictures of open GOPs, {@link FrameIndex#seekGop}). A target the codec passes
 * or never produces is retried once from one GOP earlier, then it is a {@link
 * CorruptVideoException}. A backend that does not keep its position between calls (NVDEC) starts
 * each call with a seek. Not thread-safe: owned by one {@link Decoder}.
 */
final class DecodeCursor {
  private final String file;
  private final Demuxer demuxer;
  private final FrameIndex index;
  private final FrameBackend backend;
  private final int streamWidth; // the size the stream declares; destinations may differ (scaled)
  private final int streamHeight;

  private int nextPacket; // decode-order index of the next packet to be read
  private boolean resyncAfterSeek = true;
  private int lastOutputFrame = -1;
  private int continuousFromGop; // GOP whose keyframe the decoder last started from
  private boolean drained;

  private long framesDecoded;
  private long framesDelivered;
  private long seeks;
  private long packetsRead;

  DecodeCursor(
      String file,
      Demuxer demuxer,
      FrameIndex index,
      FrameBackend backend,
      int streamWidth,
      int streamHeight) {
    this.file = file;
    this.demuxer = demuxer;
    this.index = index;
    this.backend = backend;
    this.streamWidth = streamWidth;
    this.streamHeight = streamHeight;
  }

  DecodeStats stats() {
    return new DecodeStats(framesDecoded, framesDelivered, seeks, packetsRead, demuxer.bytesRead());
  }

  /** Decodes every target of {@code plan} to {@code receiver}, in presentation order. */
  DecodeResult decode(DecodePlan plan, PictureReceiver receiver) {
    double[] pts = new double[plan.requestCount()];
    long[] frames = new long[plan.requestCount()];
    boolean[] done = new boolean[plan.targetCount()];
    RuntimeException failure = null;
    try {
      for (int t = 0; t < plan.targetCount(); t++) {
        if (!done[t]) {
          decodeTarget(plan, t, receiver, done, pts, frames);
        }
      }
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      if (!backend.keepsPositionBetweenCalls()) {
        try {
          forgetPosition();
        } catch (RuntimeException e) {
          if (failure == null) {
            throw e;
          }
          failure.addSuppressed(e); // the decode error is the one to report
        }
      }
    }
    return new DecodeResult(pts, frames);
  }

  /**
   * Ends a call of a backend that does not keep its position (NVDEC gives its session back to the
   * GPU's pool): the next call starts with a seek, which wastes nothing when it starts on a GOP
   * boundary, as the loader arranges.
   */
  private void forgetPosition() {
    backend.flush();
    lastOutputFrame = -1;
    continuousFromGop = Integer.MAX_VALUE; // nothing to continue: the next target seeks
    drained = false;
  }

  private void decodeTarget(
      DecodePlan plan, int t, PictureReceiver dst, boolean[] done, double[] pts, long[] frames) {
    int frame = plan.target(t);
    int seekGop = index.seekGop(frame);
    boolean retried = false;
    if (!canContinueTo(frame)) {
      seek(seekGop);
    }
    while (!done[t]) {
      while (backend.receive()) {
        framesDecoded++;
        int out = index.frameWithPts(backend.currentPts());
        if (out < 0) {
          continue; // a frame the container does not present (e.g. before an edit list start)
        }
        lastOutputFrame = out;
        int position = plan.targetPosition(out);
        if (position >= 0 && !done[position]) {
          deliver(plan, position, out, dst, pts, frames);
          done[position] = true;
        }
        if (out >= frame) {
          break;
        }
      }
      if (done[t]) {
        return;
      }
      boolean missed = lastOutputFrame >= frame;
      if (!missed) {
        AVPacket packet = drained ? null : readPacket();
        if (packet != null) {
          backend.send(packet);
          continue;
        }
        if (!drained) {
          backend.drain();
          drained = true;
          continue;
        }
        missed = true;
      }
      // The decoder passed the target (or ended) without producing it: start one GOP earlier
      // once, which covers streams whose GOP structure the packet flags do not show.
      if (retried || seekGop == 0) {
        throw new CorruptVideoException(
            file,
            "decoder produced no frame for pts "
                + index.frameSeconds(frame)
                + " s (frame "
                + frame
                + ")");
      }
      retried = true;
      seekGop--;
      seek(seekGop);
    }
  }

  /**
   * Whether decoding on from the current position reaches {@code frame} without wasted work: the
   * decoder has decoded continuously since a keyframe at or before the frame's GOP, has not output
   * the frame yet, and is inside that GOP (or the GOP starts with the next packet).
   */
  private boolean canContinueTo(int frame) {
    // A drained decoder still hands out the frames it holds, so draining does not force a seek.
    if (lastOutputFrame >= frame) {
      return false;
    }
    int gop = index.seekGop(frame);
    if (gop < continuousFromGop) {
      return false;
    }
    int current =
        nextPacket > 0
            ? Math.max(continuousFromGop, index.gopOfPacket(nextPacket - 1))
            : continuousFromGop;
    if (gop <= current) {
      return true;
    }
    return gop == current + 1 && nextPacket == index.gopStartPacket(gop);
  }

  private void seek(int gop) {
    demuxer.seekToGop(index, gop);
    backend.flush();
    seeks++;
    drained = false;
    lastOutputFrame = -1;
    nextPacket = index.gopStartPacket(gop);
    continuousFromGop = gop;
    resyncAfterSeek = true;
  }

  private AVPacket readPacket() {
    while (true) {
      AVPacket packet = demuxer.next();
      if (packet == null) {
        nextPacket = index.packetCount();
        return null;
      }
      if (packet.size() <= 0) {
        continue;
      }
      if (resyncAfterSeek) {
        int actual = index.packetWithDts(Demuxer.dtsOf(packet));
        if (actual >= 0) {
          nextPacket = actual;
        }
        resyncAfterSeek = false;
      }
      nextPacket++;
      packetsRead++;
      return packet;
    }
  }

  private void deliver(
      DecodePlan plan, int position, int frame, PictureReceiver dst, double[] pts, long[] frames) {
    // Against the stream's size, not a receiver's slots: a slot of another size gets each frame
    // scaled by its conversion, but a frame that changes size mid-stream is refused.
    if (backend.width() != streamWidth || backend.height() != streamHeight) {
      throw new UnsupportedVideoException(
          file,
          "frame "
              + frame
              + " is "
              + backend.width()
              + "x"
              + backend.height()
              + " but the stream declares "
              + streamWidth
              + "x"
              + streamHeight
              + " (size changes inside a stream are not supported)");
    }
    int[] requests = plan.requestsOf(position);
    double seconds = index.frameSeconds(frame);
    for (int request : requests) {
      dst.accept(request, backend, seconds, frame); // repeats: one after the other
      pts[request] = seconds;
      frames[request] = frame;
    }
    framesDelivered += requests.length;
  }
}
