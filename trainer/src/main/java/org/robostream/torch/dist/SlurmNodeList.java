package org.robostream.torch.dist;

/**
 * The first host of a SLURM node list ({@code SLURM_JOB_NODELIST}): {@code node[01-04,07],gpu2} →
 * {@code node01}, {@code gpu-[7-9]-ib} → {@code gpu-7-ib}. Only the first host is needed: the
 * rank-0 task runs there (SLURM gives task 0 to the first node of the allocation) and serves the
 * rendezvous. Stateless.
 */
final class SlurmNodeList {
  private SlurmNodeList() {}

  /**
   * @throws IllegalArgumentException for an empty or malformed list, quoting it
   */
  static String firstHost(String nodeList) {
    String list = nodeList.strip();
    StringBuilder host = new StringBuilder();
    int i = 0;
    while (i < list.length() && list.charAt(i) != ',') {
      char c = list.charAt(i);
      if (c == '[') {
        int close = list.indexOf(']', i);
        if (close < 0) {
          throw new IllegalArgumentException("malformed SLURM node list: " + nodeList);
        }
        // The first element of the range set: "01-04,07" → "01" (its zero padding is the name's).
        String ranges = list.substring(i + 1, close);
        String first = ranges.split("[,-]", 2)[0].strip();
        if (first.isEmpty() || !first.chars().allMatch(Character::isDigit)) {
          throw new IllegalArgumentException("malformed SLURM node list: " + nodeList);
        }
        host.append(first);
        i = close + 1;
      } else {
        host.append(c);
        i++;
      }
    }
    if (host.length() == 0) {
      throw new IllegalArgumentException("empty SLURM node list: '" + nodeList + "'");
    }
    return host.toString();
  }
}
