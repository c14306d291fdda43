package org.robostream.cli;

import java.util.HashMap;
import java.util.Map;

/**
 * The Hub cache on a cluster: when neither {@code HF_LEROBOT_HOME} nor {@code HF_HOME} says where,
 * and {@code $SCRATCH} is set, every command caches under {@code $SCRATCH/hf_home/lerobot} (the
 * reference's {@code HF_HOME=${HF_HOME:-$SCRATCH/hf_home}}), as the SLURM launchers do through
 * slurm/hub_cache.sh: a home folder is small and often not shared by the nodes, so {@code prewarm}
 * on a login node and {@code bench --source warmed_bucket} on a compute node meet in the same
 * cache. The library itself reads the environment as huggingface_hub does; only the CLI adds this
 * default, and says so once. Thread-safe.
 */
final class HubCacheDefault {
  private static volatile boolean announced;

  private HubCacheDefault() {}

  /** {@code env}, with {@code HF_LEROBOT_HOME} under {@code $SCRATCH} when nothing else says. */
  static Map<String, String> apply(Map<String, String> env) {
    if (!blank(env.get("HF_LEROBOT_HOME"))
        || !blank(env.get("HF_HOME"))
        || blank(env.get("SCRATCH"))) {
      return env;
    }
    Map<String, String> out = new HashMap<>(env);
    String home = env.get("SCRATCH").strip() + "/hf_home/lerobot";
    out.put("HF_LEROBOT_HOME", home);
    if (!announced) {
      announced = true;
      System.err.println("robostream Hub cache: HF_LEROBOT_HOME=" + home + " (under $SCRATCH)");
    }
    return out;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
