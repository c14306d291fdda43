package org.robostream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every spelling of a size that {@link ByteSize} takes, and every kind it refuses. */
class ByteSizeTest {
  private static final long KI = 1L << 10;
  private static final long MI = 1L << 20;
  private static final long GI = 1L << 30;
  private static final long TI = 1L << 40;

  @Test
  void everyUnitIsBinaryWithOrWithoutBAndIb() {
    String[][] units = {{"K", "1024"}, {"M", "" + MI}, {"G", "" + GI}, {"T", "" + TI}};
    for (String[] u : units) {
      long one = Long.parseLong(u[1]);
      for (String spelling : new String[] {"", "B", "i", "iB"}) {
        String upper = "2" + u[0] + spelling;
        assertEquals(2 * one, ByteSize.parse(upper), upper);
        assertEquals(2 * one, ByteSize.parse(upper.toLowerCase()), upper.toLowerCase());
      }
    }
    assertEquals(2 * GI, ByteSize.parse("2gB"));
    assertEquals(2 * GI, ByteSize.parse("2GIB"));
    assertEquals(2 * GI, ByteSize.parse("2Gib"));
  }

  @Test
  void plainNumbersAndBAreBytes() {
    assertEquals(1048576, ByteSize.parse("1048576"));
    assertEquals(1048576, ByteSize.parse("1048576B"));
    assertEquals(1048576, ByteSize.parse("1048576 b"));
    assertEquals(1, ByteSize.parse("1"));
    assertEquals(1, ByteSize.parse("1.0"));
    assertEquals(Long.MAX_VALUE, ByteSize.parse(Long.toString(Long.MAX_VALUE)));
  }

  @Test
  void spacesAroundAndBetweenAreAllowed() {
    assertEquals(2 * GI, ByteSize.parse(" 2 GiB "));
    assertEquals(2 * GI, ByteSize.parse("2\tG"));
    assertEquals(512 * MI, ByteSize.parse("512 M"));
  }

  @Test
  void decimalsWithAUnitRoundDownToAWholeByte() {
    assertEquals(3 * GI / 2, ByteSize.parse("1.5G"));
    assertEquals(3 * GI / 2, ByteSize.parse("1.5 GiB"));
    assertEquals(512, ByteSize.parse("0.5K"));
    assertEquals(512, ByteSize.parse(".5k"));
    assertEquals(1126, ByteSize.parse("1.1K"), "1126.4 bytes rounded down");
    assertEquals(TI / 4, ByteSize.parse("0.25T"));
  }

  @Test
  void zeroAndWhatComesToLessThanAByteAreRefusedNamingTheValue() {
    for (String t : new String[] {"0", "0G", "0.0M", "0B", "0.0001K"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(t), t);
      assertTrue(e.getMessage().startsWith(t + " is not a size"), e.getMessage());
      assertTrue(e.getMessage().contains("less than 1 byte"), e.getMessage());
    }
  }

  @Test
  void negativeSizesAreRefusedNamingTheValue() {
    for (String t : new String[] {"-1", "-2G", "-0.5GiB"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(t), t);
      assertEquals(t + " is not a size: sizes are positive", e.getMessage());
    }
  }

  @Test
  void overflowIsRefusedNamingTheValue() {
    for (String t :
        new String[] {
          "8388608T", "9223372036854775808", "99999999999999999999G", "9007199254740992K"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(t), t);
      assertTrue(
          e.getMessage().equals(t + " is more than 9223372036854775807 bytes, the largest size"),
          e.getMessage());
    }
    assertEquals(8388607 * TI, ByteSize.parse("8388607T"), "the largest whole T");
  }

  @Test
  void garbageIsRefusedNamingTheValueAndWhatToWrite() {
    for (String t :
        new String[] {
          "lots", "G", "2X", "2GG", "2iB", "2 i", "2BG", "2P", "1e9", "1,000", "2G2", "0x10", "1.",
          "2 G B", "++2"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(t), t);
      assertEquals(t + " is not a size (" + ByteSize.EXAMPLES + ")", e.getMessage());
    }
  }

  @Test
  void emptyBlankNullAndOverlongTextsAreRefused() {
    assertEquals(
        "\"\" is not a size (" + ByteSize.EXAMPLES + ")",
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("")).getMessage());
    assertEquals(
        "\"  \" is not a size (" + ByteSize.EXAMPLES + ")",
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("  ")).getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(null))
            .getMessage()
            .startsWith("null is not a size"));
    String longText = "1".repeat(65);
    assertEquals(
        "a 65-character text is not a size (" + ByteSize.EXAMPLES + ")",
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(longText)).getMessage());
  }

  @Test
  void aFractionOfAByteIsRefused() {
    for (String t : new String[] {"1.5", "1.5B", "100.25"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(t), t);
      assertTrue(e.getMessage().startsWith(t + " is not a whole number of bytes"), e.getMessage());
    }
  }

  @Test
  void describeNamesTheLargestUnitAndTheExactBytes() {
    assertEquals("1000 bytes", ByteSize.describe(1000));
    assertEquals("1 KiB (1024 bytes)", ByteSize.describe(KI));
    assertEquals("1.5 GiB (1610612736 bytes)", ByteSize.describe(3 * GI / 2));
    assertEquals("353 MiB (370147328 bytes)", ByteSize.describe(353 * MI));
    assertEquals("2 TiB (2199023255552 bytes)", ByteSize.describe(2 * TI));
    assertEquals("8 EiB (9223372036854775807 bytes)", ByteSize.describe(Long.MAX_VALUE), "rounded");
  }
}
