package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The backoff the javadoc promises: doubling caps, pauses between half and all of the cap. */
class HubRetryPolicyTest {
  final RetryPolicy policy = new RetryPolicy(8, Duration.ofMillis(100), Duration.ofMillis(1000));

  @Test
  void pausesLieBetweenHalfAndAllOfADoublingCapAndVary() {
    long[] caps = {100, 200, 400, 800, 1000, 1000, 1000};
    for (int retry = 1; retry <= caps.length; retry++) {
      Set<Long> seen = new HashSet<>();
      for (int i = 0; i < 2000; i++) {
        long ms = policy.delay(retry, null).toMillis();
        assertTrue(
            ms >= caps[retry - 1] / 2 && ms <= caps[retry - 1],
            "retry "
                + retry
                + ": "
                + ms
                + " ms outside ["
                + caps[retry - 1] / 2
                + ", "
                + caps[retry - 1]
                + "]");
        seen.add(ms);
      }
      assertTrue(seen.size() > 20, "jitter: only " + seen.size() + " distinct pauses");
    }
    assertEquals(1000, policy.delay(60, null).toMillis(), 500, "no overflow on late retries");
  }

  @Test
  void retryAfterReplacesThePauseUpToTheCap() {
    assertEquals(Duration.ofMillis(700), policy.delay(1, Duration.ofMillis(700)));
    assertEquals(Duration.ZERO, policy.delay(5, Duration.ZERO));
    assertEquals(Duration.ofMillis(1000), policy.delay(1, Duration.ofSeconds(30)));
    assertEquals(Duration.ZERO, policy.delay(1, Duration.ofSeconds(-3)), "a date in the past");
  }

  @Test
  void nonsenseIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(1)));
  }
}
