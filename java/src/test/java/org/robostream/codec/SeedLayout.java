package org.robostream.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.robostream.testing.Ffprobe;

/**
 * What the bytes of a fuzz seed are for, from ffprobe's packet list and the box tree: each packet's
 * payload and its GOP; the index (moov: where and when samples are, the codec configuration); and
 * inert bytes no frame depends on (ftyp, free, udta, vmhd, the mdat header). It tells the fuzz test
 * which frames a mutation may legitimately damage.
 */
final class SeedLayout {
  /** Boxes whose content neither locates, times nor configures the decoding of a sample. */
  private static final List<String> INERT_BOXES = List.of("ftyp", "free", "udta", "vmhd");

  private final int width;
  private final int height;
  private final double[] framePts;
  private final List<Ffprobe.Packet> packets;
  private final int[] gopOfPacket;
  private final int[] packetOfFrame;
  private final List<long[]> indexRanges;

  private SeedLayout(
      int width,
      int height,
      double[] framePts,
      List<Ffprobe.Packet> packets,
      List<long[]> indexRanges) {
    this.width = width;
    this.height = height;
    this.framePts = framePts;
    this.packets = packets;
    this.indexRanges = indexRanges;
    this.gopOfPacket = new int[packets.size()];
    int gop = -1;
    for (int p = 0; p < packets.size(); p++) {
      if (packets.get(p).key() || gop < 0) {
        gop++;
      }
      gopOfPacket[p] = gop;
    }
    this.packetOfFrame = new int[framePts.length];
    for (int f = 0; f < framePts.length; f++) {
      packetOfFrame[f] = packetWithPts(framePts[f]);
    }
  }

  static SeedLayout of(Path seed) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(seed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Ffprobe.Stream stream = Ffprobe.stream(seed);
    double[] pts = Ffprobe.frames(seed).stream().mapToDouble(Ffprobe.Frame::ptsSeconds).toArray();
    return new SeedLayout(
        stream.width(),
        stream.height(),
        pts,
        Ffprobe.packets(seed),
        indexRanges(Mp4Boxes.of(bytes)));
  }

  /** moov minus its inert boxes. */
  private static List<long[]> indexRanges(List<Mp4Boxes.Box> boxes) {
    List<long[]> out = new ArrayList<>();
    for (Mp4Boxes.Box moov : boxes) {
      if (!moov.path().equals("moov")) {
        continue;
      }
      long from = moov.offset();
      for (Mp4Boxes.Box box : boxes) {
        if (box.within("moov") && INERT_BOXES.contains(box.type())) {
          out.add(new long[] {from, box.offset()});
          from = box.end();
        }
      }
      out.add(new long[] {from, moov.end()});
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("seed has no moov box");
    }
    return out;
  }

  int width() {
    return width;
  }

  int height() {
    return height;
  }

  double[] framePts() {
    return framePts.clone();
  }

  double framePts(int frame) {
    return framePts[frame];
  }

  int frameCount() {
    return framePts.length;
  }

  boolean touchesIndex(ByteChanges changes) {
    return indexRanges.stream().anyMatch(r -> changes.touches(r[0], r[1]));
  }

  boolean touchesPayload(ByteChanges changes) {
    for (int p = 0; p < packets.size(); p++) {
      if (touchesPacket(changes, p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the mutation changed a packet that decoding {@code frame} reads: its GOP, and the
   * previous one for a leading picture of an open GOP (pts before its keyframe's).
   */
  boolean touchesPayloadOf(ByteChanges changes, int frame) {
    int packet = packetOfFrame[frame];
    int gop = gopOfPacket[packet];
    int firstGop = framePts[frame] < packets.get(gopStart(gop)).ptsSeconds() ? gop - 1 : gop;
    for (int p = 0; p < packets.size(); p++) {
      if (gopOfPacket[p] >= firstGop && gopOfPacket[p] <= gop && touchesPacket(changes, p)) {
        return true;
      }
    }
    return false;
  }

  /** "none", or the kinds of bytes changed: index, payload, inert, joined by '+'. */
  String regions(ByteChanges changes) {
    List<String> kinds = new ArrayList<>();
    if (touchesIndex(changes)) {
      kinds.add("index");
    }
    if (touchesPayload(changes)) {
      kinds.add("payload");
    }
    if (!changes.isEmpty() && kinds.isEmpty()) {
      kinds.add("inert");
    }
    return kinds.isEmpty() ? "none" : String.join("+", kinds);
  }

  private boolean touchesPacket(ByteChanges changes, int p) {
    Ffprobe.Packet packet = packets.get(p);
    return changes.touches(packet.position(), packet.position() + packet.size());
  }

  private int gopStart(int gop) {
    int p = 0;
    while (gopOfPacket[p] != gop) {
      p++;
    }
    return p;
  }

  private int packetWithPts(double pts) {
    for (int p = 0; p < packets.size(); p++) {
      if (Math.abs(packets.get(p).ptsSeconds() - pts) < 1e-6) {
        return p;
      }
    }
    throw new IllegalStateException("no packet of the seed has pts " + pts);
  }
}
