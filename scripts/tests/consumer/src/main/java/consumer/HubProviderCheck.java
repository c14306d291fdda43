package consumer;

import org.robostream.stream.StreamingDataset;

/**
 * Whether the library finds its Hub provider in this JVM: on the class path through
 * META-INF/services, on the module path through its {@code uses}/{@code provides}. A bucket
 * location is refused by the Hub provider itself, before any request ("... is a bucket ...");
 * without a provider it would be "no dataset source reads this location". Prints the message.
 */
public final class HubProviderCheck {
  public static void main(String[] args) {
    try {
      StreamingDataset.builder("hf://buckets/robostream/check").build().close();
      System.out.println("opened a bucket as a dataset");
    } catch (IllegalArgumentException e) {
      System.out.println(e.getMessage());
    }
  }
}
