package org.robostream.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * What a {@link FuzzWorker} saw when it decoded one mutation, sent to the parent JVM as one JSON
 * line. Errors read "TYPED Class", "UNNAMED Class message" (a VideoException whose message does not
 * name the file) or "UNTYPED throwable".
 *
 * @param openError why opening failed, or null
 * @param width the decoder's declared frame width (0 when opening failed)
 * @param deliveries one per frame requested, in the order asked
 */
record FuzzObservation(
    int caseNumber, String openError, int width, int height, List<Delivery> deliveries) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One requested frame.
   *
   * @param call "planned" (all frames of the case in one decode call) or "single" (one per call)
   * @param frame the seed's presentation index that was asked for (by its pts)
   * @param error why the call failed, or null
   * @param pts the pts the decoder reports for the slot
   * @param tablePts the decoder's frame table entry for the frame index it reports
   * @param pattern the frame number read from the pixels (-1 when the size is wrong)
   * @param meanDiff mean absolute difference to the ffmpeg CLI's frame of the seed (NaN when the
   *     size is wrong)
   */
  record Delivery(
      String call,
      int frame,
      String error,
      double pts,
      double tablePts,
      int pattern,
      double meanDiff) {}

  String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static FuzzObservation fromJson(String line) {
    try {
      return JSON.readValue(line, FuzzObservation.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("bad fuzz worker line: " + line, e);
    }
  }
}
