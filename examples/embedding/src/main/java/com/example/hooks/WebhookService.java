package com.example.hooks;

import io.ankusa.store.queue.DeadLetter;
import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.QueueOptions;
import io.ankusa.store.queue.QueueStats;
import io.ankusa.store.queue.WebhookQueue;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A webhook service in one class: it receives hooks for three tenants, delivers them to an in-process
 * sink that is busy now and then (retried a second later) and refuses one tenant's hooks until it is
 * fixed (dead-lettered), then revives that tenant's dead letters and delivers them too.
 */
public final class WebhookService {
  /** The sink: sink 2 is busy at every hook's first attempt (retry), and "flaky" is refused until fixed. */
  static final class Sink {
    final Map<String, Integer> received = new ConcurrentHashMap<>();
    volatile boolean flakyFixed;

    String post(Delivery d) {
      if (d.tenantId().equals("flaky") && !flakyFixed) {
        return "410 gone";
      }
      if (d.sink() == 2 && d.attempt() == 1) {
        return "503 busy";
      }
      received.merge(d.hookId() + "@" + d.sink() + ":" + new String(d.payload(), StandardCharsets.UTF_8), 1, Integer::sum);
      return "200";
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("webhook-service-");
    Sink sink = new Sink();
    Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), WebhookQueue.families());
    try (WebhookQueue queue = WebhookQueue.open(store, QueueOptions.defaults(), deliveries -> {
      for (Delivery d : deliveries) {
        String answer = sink.post(d);
        switch (answer) {
          case "200" -> d.delivered();
          case "503 busy" -> d.retry(System.currentTimeMillis() + 1_000, answer);
          default -> d.deadLetter(answer);
        }
      }
    })) {
      for (int i = 0; i < 30; i++) {
        String tenant = List.of("acme", "globex", "flaky").get(i % 3);
        IngestResult r = queue.ingest(new IngestRequest(tenant, "github", "evt-" + i, "evt-" + i,
            System.currentTimeMillis(), List.of(1, 2), ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8))).join();
        if (r.outcome() != IngestResult.Outcome.CREATED) {
          throw new IllegalStateException("evt-" + i + " was not stored: " + r);
        }
      }
      QueueStats s = await(queue, "every delivery answered", q -> q.due() + q.inflight() == 0);
      System.out.printf("delivered %d, retried %d, dead-lettered %d%n", s.delivered(), s.retried(), s.deadLettered());
      if (s.retried() != 20 || s.deadLettered() != 20) {
        throw new IllegalStateException("expected 20 retries (sink 2 of acme and globex) and 20 dead letters: " + s);
      }

      sink.flakyFixed = true;
      List<DeadLetter> dead = queue.deadLetters().newest("flaky", 100).letters();
      System.out.printf("reviving %d dead letters of tenant flaky (last error: %s)%n", queue.deadLetters().revive(dead),
          dead.isEmpty() ? "-" : dead.get(0).lastError());
      s = await(queue, "the revived deliveries delivered", q -> q.due() + q.inflight() + q.dead() == 0);
      System.out.printf("delivered %d in all; the sink received %d hook-sink pairs%n", s.delivered(), sink.received.size());
      if (sink.received.size() != 60) {
        throw new IllegalStateException("the sink received " + sink.received.size() + " hook-sink pairs, not 60");
      }
    } finally {
      store.close();
    }
  }

  /** Polls the queue's stats until {@code done} holds (a minute at most). */
  static QueueStats await(WebhookQueue queue, String what, java.util.function.Predicate<QueueStats> done)
      throws InterruptedException {
    long until = System.nanoTime() + 60_000_000_000L;
    QueueStats s = queue.stats();
    while (!done.test(s)) {
      if (System.nanoTime() > until) {
        throw new IllegalStateException("waited a minute for " + what + ": " + s);
      }
      Thread.sleep(20);
      s = queue.stats();
    }
    return s;
  }
}
