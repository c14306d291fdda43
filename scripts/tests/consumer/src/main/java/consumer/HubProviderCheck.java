package consumer;

import org.robostream.stream.StreamingDataset;

/**
 * Whether the library finds its Hub provider in this JVM: on the class path through
 * META-INF/services, on the module path through its {@code uses}/{@code provides}. A path inside a
 * bucket is refused by the Hub provider itself, before any request ("... is a path inside a bucket
 * ..."); without a provider it would be "no dataset source reads this location". Prints the
 * message.
 */
public final class HubProviderCheck {
  public static void main(String[] args) {
    try {
      StreamingDataset.builder("hf://buckets/robostream/check/inside").build().close();
      System.out.println("opened a path inside a bucket as a dataset");
    } catch (IllegalArgumentException e) {
      System.out.println(e.getMessage());
    }
  }
}
