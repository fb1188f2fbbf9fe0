package io.ankusa.store.etcd;

import io.etcd.jetcd.Client;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The etcd clients of this JVM, one per set of endpoints and request timeout: stores on the same
 * cluster share a client (its gRPC channel, its event loops), which makes opening a store cheap. A
 * client no store uses stays open for {@value #LINGER_MILLIS} ms, so a store closed and opened
 * again finds it, then closes. Also the JVM's one scheduler for lease renewals and compaction
 * ({@link #scheduler()}), on a daemon thread.
 */
final class SharedClients {
  static final long LINGER_MILLIS = 10_000;

  /**
   * Largest answer the client takes: a page of a scan or a multiGet of values up to the largest
   * value.
   */
  static final int MAX_INBOUND_BYTES = 320 << 20;

  private record Key(List<URI> endpoints, long requestTimeoutMs) {}

  private static final class Shared {
    final Client client;
    int users;
    long generation;

    Shared(Client client) {
      this.client = client;
    }
  }

  private static final Map<Key, Shared> CLIENTS = new HashMap<>();
  private static final ScheduledExecutorService SCHEDULER =
      Executors.newScheduledThreadPool(
          1,
          r -> {
            Thread t = new Thread(r, "ankusa-etcd-housekeeping");
            t.setDaemon(true);
            return t;
          });

  private SharedClients() {}

  static ScheduledExecutorService scheduler() {
    return SCHEDULER;
  }

  /** A client for {@code endpoints}, shared; give it back with {@link #release}. */
  static synchronized Client acquire(List<URI> endpoints, long requestTimeoutMs) {
    Key key = new Key(List.copyOf(endpoints), requestTimeoutMs);
    Shared shared = CLIENTS.computeIfAbsent(key, k -> new Shared(create(k)));
    shared.users++;
    shared.generation++;
    return shared.client;
  }

  /** Gives {@code client} back; unused, it closes after {@value #LINGER_MILLIS} ms. */
  static synchronized void release(Client client) {
    for (Map.Entry<Key, Shared> e : CLIENTS.entrySet()) {
      Shared s = e.getValue();
      if (s.client == client) {
        if (--s.users == 0) {
          long generation = s.generation;
          Key key = e.getKey();
          SCHEDULER.schedule(
              () -> closeIfUnused(key, generation), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        }
        return;
      }
    }
  }

  private static void closeIfUnused(Key key, long generation) {
    Client closing;
    synchronized (SharedClients.class) {
      Shared s = CLIENTS.get(key);
      if (s == null || s.users > 0 || s.generation != generation) {
        return;
      }
      CLIENTS.remove(key);
      closing = s.client;
    }
    closing.close();
  }

  private static Client create(Key key) {
    Duration timeout = Duration.ofMillis(key.requestTimeoutMs());
    return Client.builder()
        .endpoints(key.endpoints().toArray(new URI[0]))
        .maxInboundMessageSize(MAX_INBOUND_BYTES)
        .connectTimeout(timeout)
        // jetcd retries reads (and nothing that could apply twice) on UNAVAILABLE; within the
        // deadline
        .retryMaxDuration(timeout)
        .retryDelay(50)
        .retryMaxDelay(500)
        .retryChronoUnit(java.time.temporal.ChronoUnit.MILLIS)
        .keepaliveTime(Duration.ofSeconds(10))
        .keepaliveTimeout(Duration.ofSeconds(5))
        .build();
  }
}
