package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A camera's declared shape as LeRobot reads it: {@code names} decide the axis order (both
 * "channel" and "channels", either end), the numbers where names do not say or contradict them (a
 * channel count of neither 1 nor 3), and the feature's {@code info} ({@code video_info}) must
 * restate the same size.
 */
class FrameShapeDeclarationTest {
  private static final String SOURCE = "/data/ds/meta/info.json";

  @ParameterizedTest(name = "{0} names {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "[480,640,3]; [\"height\",\"width\",\"channels\"]; 480; 640; false",
        "[480,640,3]; [\"height\",\"width\",\"channel\"]; 480; 640; false",
        "[3,480,640]; [\"channels\",\"height\",\"width\"]; 480; 640; true",
        "[3,480,640]; [\"channel\",\"height\",\"width\"]; 480; 640; true",
        "[256,256,3]; [\"height\",\"width\",\"rgb\"]; 256; 256; false",
        "[3,480,640]; [\"c\",\"h\",\"w\"]; 480; 640; true",
        "[480,640,3]; null; 480; 640; false",
        "[3,480,640]; null; 480; 640; true",
        "[3,480,640]; {\"axes\":[\"channels\",\"height\",\"width\"]}; 480; 640; true",
        "[3,64,3]; null; 3; 64; false",
        "[480,640,3]; [\"channels\",\"height\",\"width\"]; 480; 640; false",
        "[3,480,640]; [\"height\",\"width\",\"channel\"]; 480; 640; true",
      })
  void namesDecideTheAxisOrderAndTheNumbersOnlyWhereNamesDoNotSay(
      String shape, String names, int height, int width, boolean channelsFirst) {
    FrameShape s = camera(shape, names, "{}").features().get("cam").frameShape();
    assertEquals(new FrameShape(height, width, 3, channelsFirst), s);
  }

  @Test
  void aVideoInfoSizeThatDisagreesWithTheShapeIsRefusedNamingInfoJsonTheFeatureAndBothSizes() {
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () ->
                camera(
                    "[3,480,640]",
                    "[\"channels\",\"height\",\"width\"]",
                    "{\"video.height\": 720, \"video.width\": 640}"));
    assertEquals(SOURCE, e.file());
    for (String word : new String[] {"features.cam.video_info.video.height is 720", "640x480"}) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void aVideoInfoThatRestatesTheChannelsFirstSizeIsAccepted() {
    FrameShape s =
        camera(
                "[3,480,640]",
                "[\"channels\",\"height\",\"width\"]",
                "{\"video.height\": 480, \"video.width\": 640, \"video.channels\": 3}")
            .features()
            .get("cam")
            .frameShape();
    assertEquals("640x480", s.size());
  }

  @Test
  void aCameraWithoutThreeAxesOrThreeChannelsIsRefusedNamingTheFeature() {
    for (String shape : new String[] {"[480,640]", "[480,640,4]", "[2,480,640,3]"}) {
      DatasetException.BadMetadata e =
          assertThrows(
              DatasetException.BadMetadata.class, () -> camera(shape, "null", "{}"), shape);
      assertTrue(e.getMessage().contains("features.cam.shape"), e.getMessage());
    }
  }

  private static DatasetInfo camera(String shape, String names, String info) {
    String json =
        "{\"codebase_version\":\"v2.1\",\"fps\":30,"
            + "\"data_path\":\"data/{episode_index}.parquet\","
            + "\"video_path\":\"videos/{video_key}/{episode_index}.mp4\","
            + "\"features\":{\"cam\":{\"dtype\":\"video\",\"shape\":"
            + shape
            + ",\"names\":"
            + names
            + ",\"video_info\":"
            + info
            + "}}}";
    try {
      JsonNode root = MetadataFiles.JSON.readTree(json);
      return DatasetInfo.parse(root, SOURCE);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
