package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.robostream.hub.RevisionResolver.Choice;

/**
 * The reference's "safe version" rule over tag lists: the wanted version's tag, else the highest of
 * its major version that is not newer, else main (nothing wanted) or an error.
 */
class HubRevisionResolverTest {
  static Choice choose(String requested, String... tags) {
    return RevisionResolver.choose(List.of(tags), requested);
  }

  @Test
  void theWantedTagWhenItExists() {
    Choice c = choose(null, "v2.1", "v3.0", "v3.1");
    assertEquals("v3.0", c.revision());
    assertNull(c.warning());
    assertEquals("v3.1", choose("v3.1", "v3.0", "v3.1", "v3.2").revision());
  }

  @Test
  void noWantedTagTakesTheHighestCompatibleOneThatIsNotNewer() {
    Choice patch = choose(null, "v2.1", "v3.0.1", "v3.0.2", "v3.1");
    assertEquals("v3.0.2", patch.revision(), "v3.1 is newer than the v3.0 this code reads");
    assertTrue(patch.warning().contains("no v3.0 tag"), patch.warning());
    assertEquals("v3.1", choose("v3.2", "v3.0", "v3.1", "v3.3").revision());
    assertEquals("v3.0", choose("v3.1", "v3.0", "v3.2").revision(), "not the newer v3.2");
  }

  @Test
  void noV3TagMeansMainWithAWarningWhenNothingWasAsked() {
    for (Choice c : List.of(choose(null, "v2.1"), choose(null))) {
      assertEquals("main", c.revision());
      assertTrue(c.warning().contains("no v3.x tag"), c.warning());
    }
  }

  @Test
  void onlyNewerTagsOrAMissingVersionAreErrorsThatListTheTags() {
    Choice newer = choose(null, "v2.1", "v3.1", "v3.2");
    assertNull(newer.revision());
    assertTrue(
        newer.error().contains("[v3.1, v3.2]")
            && newer.error().contains("one of them as the revision"),
        newer.error());
    Choice missing = choose("v4.0", "v3.0");
    assertNull(missing.revision());
    assertTrue(
        missing.error().contains("no tag v4.0") && missing.error().contains("[v3.0]"),
        missing.error());
  }
}
