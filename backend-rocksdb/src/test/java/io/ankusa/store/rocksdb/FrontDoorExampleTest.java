package io.ankusa.store.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.QueueOptions;
import io.ankusa.store.queue.WebhookQueue;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of the queue's package documentation ({@code io.ankusa.store.queue}), run as it is
 * written there on a RocksDB store: the lines between the markers below are the lines of the
 * documentation's example, which the second test compares.
 */
class FrontDoorExampleTest {
  /** The example's {@code sink}: takes every post, and remembers what it was given. */
  static final class Sink {
    final ConcurrentHashMap<Integer, List<String>> posted = new ConcurrentHashMap<>();

    boolean post(int sink, byte[] payload) {
      posted.computeIfAbsent(sink, s -> new ArrayList<>()).add(new String(payload, UTF_8));
      return true;
    }
  }

  /**
   * The example ingests a hook and closes; its handler delivers the hook then, or, if the queue
   * closed first, when the queue is next opened on the store.
   */
  @Test
  void theExampleIngestsAHookThatItsHandlerDelivers(@TempDir Path dir) throws Exception {
    Sink sink = new Sink();
    example(dir, sink);
    Store store =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), WebhookQueue.families());
    try (WebhookQueue queue =
        WebhookQueue.open(
            store,
            QueueOptions.defaults(),
            deliveries -> {
              deliveries.forEach(
                  d -> {
                    sink.post(d.sink(), d.payload());
                    d.delivered();
                  });
            })) {
      long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (queue.stats().due() + queue.stats().inflight() > 0 && System.nanoTime() < waitUntil) {
        Thread.sleep(5);
      }
      assertThat(queue.stats().due() + queue.stats().inflight()).as("deliveries left").isZero();
    } finally {
      store.close();
    }
    assertThat(sink.posted.get(1)).as("what the sink was posted, once").containsExactly("{}");
  }

  /** The example, from the line after its start marker to the line before its end marker. */
  private static void example(Path dir, Sink sink) throws Exception {
    // example:start
    Store store =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), WebhookQueue.families());
    try (WebhookQueue queue =
        WebhookQueue.open(
            store,
            QueueOptions.defaults(),
            deliveries -> {
              for (Delivery d : deliveries) {
                if (sink.post(d.sink(), d.payload())) d.delivered();
                else d.retry(System.currentTimeMillis() + 5_000, "sink busy");
              }
            })) {
      queue
          .ingest(
              new IngestRequest(
                  "acme",
                  "github",
                  "evt-1",
                  "evt-1",
                  System.currentTimeMillis(),
                  List.of(1),
                  "{}".getBytes(UTF_8)))
          .join(); // CREATED, once durable
      // ... serve until the service stops
    }
    store.close();
    // example:end
  }

  @Test
  void thePackageDocumentationShowsTheExampleAsTheBuildRunsIt() throws IOException {
    Path here = Path.of("src/test/java/io/ankusa/store/rocksdb/FrontDoorExampleTest.java");
    Path docs = Path.of("../queue/src/main/java/io/ankusa/store/queue/package-info.java");
    String test = Files.readString(here, UTF_8);
    Matcher ran =
        Pattern.compile("// example:start\\n(.*?)\\n\\s*// example:end", Pattern.DOTALL)
            .matcher(test);
    assertThat(ran.find()).as("the example markers in %s", here).isTrue();
    Matcher shown =
        Pattern.compile("<pre>\\{@code\\n(.*?)\\n \\* }</pre>", Pattern.DOTALL)
            .matcher(Files.readString(docs, UTF_8));
    assertThat(shown.find()).as("the example in %s", docs).isTrue();
    assertThat(tokens(shown.group(1).replaceAll("(?m)^ \\* ?", "")))
        .as("the documented example, token by token (the doc keeps its own line breaks)")
        .isEqualTo(tokens(ran.group(1)));
  }

  /** The code's tokens: words and punctuation, whatever the line breaks and indentation. */
  private static List<String> tokens(String code) {
    return List.of(code.replaceAll("([(){};,.])", " $1 ").strip().split("\\s+"));
  }
}
