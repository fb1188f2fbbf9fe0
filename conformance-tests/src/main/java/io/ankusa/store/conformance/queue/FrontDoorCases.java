package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.assertCountersEqualFold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.queue.AsyncDeliveryHandler;
import io.ankusa.store.queue.DeadLetter;
import io.ankusa.store.queue.DeadLetterPage;
import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.DeliveryHandler;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.QueueOptions;
import io.ankusa.store.queue.QueueStats;
import io.ankusa.store.queue.WebhookQueue;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import net.jqwik.api.Example;

/**
 * The queue through its front door, {@link WebhookQueue}, on the backend's store, with its own
 * threads running: what a handler is handed (every field of every delivery, the payload byte for
 * byte), what each answer does (delivered, retry, dead-letter and its revive, none), the
 * asynchronous handler's answers and their refusal once the queue that handed them out is closed, a
 * handler that throws, and a synchronous answer given too late. Each case waits for what its
 * handler sees (bounded, never timed) and checks the store once the queue is closed, when every
 * thread has stopped: counters equal a fold and the verifier finds nothing.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface FrontDoorCases extends LayoutCase {
  /** The options every case opens the queue with: the suite's queue settings, small ticks. */
  private QueueOptions options() {
    return QueueOptions.defaults()
        .withTenantsMax(queueConfig().tenantsMax())
        .withShardedAggregate(queueConfig().shardedAggregate())
        .withTickBudget(64, 1L << 20);
  }

  /**
   * Every field of every delivery is what was ingested, the payload byte for byte: 40 hooks of
   * three tenants (one without a tenant: {@code "default"}), some with two sinks, payloads of 0 to
   * 3 000 random bytes, some without an idempotency key. Each delivery is handed out once, as
   * attempt 1, and delivered.
   */
  @Example
  default void aHandlerIsHandedEveryFieldOfEveryHookByteForByte() throws Exception {
    List<IngestRequest> requests = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(46);
    int rows = 0;
    for (int i = 0; i < 40; i++) {
      byte[] payload = new byte[random.nextInt(3_001)];
      random.nextBytes(payload);
      List<Integer> sinks = i % 3 == 0 ? List.of(2, 7) : List.of(1 + i % 5);
      rows += sinks.size();
      requests.add(
          new IngestRequest(
              i % 4 == 0 ? null : "t" + i % 3,
              "src-" + i % 2,
              "hook-" + i,
              i % 5 == 0 ? null : "key-" + i,
              1_000_000L + i,
              sinks,
              payload));
    }
    Map<String, IngestRequest> byHookId = new HashMap<>();
    requests.forEach(r -> byHookId.put(r.hookId(), r));
    List<Delivery> seen = new CopyOnWriteArrayList<>();
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue =
          WebhookQueue.open(
              t.store(),
              options(),
              deliveries -> {
                for (Delivery d : deliveries) {
                  seen.add(d);
                  assertThat(d.attempt()).as("the attempt of %s", d).isEqualTo(1);
                  d.delivered();
                }
              })) {
        for (IngestRequest r : requests) {
          assertThat(queue.ingest(r).join().outcome())
              .as("ingest of %s", r.hookId())
              .isEqualTo(IngestResult.Outcome.CREATED);
        }
        int all = rows;
        awaitTrue(() -> seen.size() >= all, "the handler to be handed " + all + " deliveries");
      }
      String on = backend().name();
      assertThat(seen).as("%s: deliveries handed out", on).hasSize(rows);
      Map<String, List<Integer>> sinksSeen = new HashMap<>();
      for (Delivery d : seen) {
        IngestRequest r = byHookId.get(d.hookId());
        assertThat(r).as("%s: a delivery of a hook that was ingested: %s", on, d).isNotNull();
        assertThat(d.tenantId())
            .as("%s: tenant of %s", on, d)
            .isEqualTo(r.tenantId() == null ? "default" : r.tenantId());
        assertThat(d.sourceId()).as("%s: source of %s", on, d).isEqualTo(r.sourceId());
        assertThat(d.idempotencyKey())
            .as("%s: idempotency key of %s", on, d)
            .isEqualTo(r.idempotencyKey());
        assertThat(d.receivedAt()).as("%s: received-at of %s", on, d).isEqualTo(r.receivedAt());
        assertThat(Arrays.equals(d.payload(), r.payload()))
            .as("%s: the payload of %s, byte for byte (%d bytes)", on, d, r.payload().length)
            .isTrue();
        assertThat(d.payloadSize())
            .as("%s: payload size of %s", on, d)
            .isEqualTo(r.payload().length);
        sinksSeen.computeIfAbsent(d.hookId(), h -> new ArrayList<>()).add(d.sink());
      }
      for (IngestRequest r : requests) {
        assertThat(sinksSeen.get(r.hookId()))
            .as("%s: sinks %s of %s, each handed out once", on, r.sinks(), r.hookId())
            .containsExactlyInAnyOrderElementsOf(r.sinks());
      }
      assertStoreDrainedAndClean(t.store(), on);
    }
  }

  /**
   * Every answer does what it says, through a synchronous and through an asynchronous handler: of
   * four hooks, one is delivered; one retried, then delivered on its second attempt; one
   * dead-lettered, found on the dead-letter queue's page with its reason and attempts, revived,
   * then delivered on its second attempt; one left unanswered, in flight until the queue is opened
   * again, whose recovery hands it out again.
   */
  @Example
  default void everyAnswerOfASynchronousHandlerDoesWhatItSays() throws Exception {
    everyAnswerDoesWhatItSays(false);
  }

  /** {@link #everyAnswerOfASynchronousHandlerDoesWhatItSays}, answered from another thread. */
  @Example
  default void everyAnswerOfAnAsynchronousHandlerDoesWhatItSays() throws Exception {
    everyAnswerDoesWhatItSays(true);
  }

  private void everyAnswerDoesWhatItSays(boolean async) throws Exception {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      everyAnswerDoesWhatItSays(async, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  private void everyAnswerDoesWhatItSays(boolean async, java.util.concurrent.ExecutorService pool)
      throws Exception {
    String on = backend().name() + (async ? ", asynchronous handler" : ", synchronous handler");
    Map<String, List<Long>> attempts = new ConcurrentHashMap<>();
    AtomicBoolean leaveTheLastOne = new AtomicBoolean(true);
    java.util.function.Consumer<Delivery> answer =
        d -> {
          attempts.computeIfAbsent(d.hookId(), h -> new CopyOnWriteArrayList<>()).add(d.attempt());
          switch (d.hookId()) {
            case "deliver" -> d.delivered();
            case "retry" -> {
              if (d.attempt() == 1) {
                d.retry(0, "503 busy");
              } else {
                d.delivered();
              }
            }
            case "dead" -> {
              if (d.attempt() == 1) {
                d.deadLetter("410 gone");
              } else {
                d.delivered();
              }
            }
            default -> {
              if (!leaveTheLastOne.get()) {
                d.delivered();
              }
            }
          }
        };
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue = open(t.store(), async, answer, pool)) {
        for (String hook : List.of("deliver", "retry", "dead", "leave")) {
          assertThat(queue.ingest(request(hook)).join().outcome())
              .isEqualTo(IngestResult.Outcome.CREATED);
        }
        awaitTrue(
            () ->
                queue.stats().dead() == 1
                    && attempts.getOrDefault("retry", List.of()).size() == 2
                    && queue.stats().delivered() == 2,
            "one dead letter and two deliveries");
        DeadLetterPage page = queue.deadLetters().newest("acme", 10);
        assertThat(page.letters()).as("%s: the dead-letter page", on).hasSize(1);
        DeadLetter letter = page.letters().get(0);
        assertThat(letter.hookId()).isEqualTo("dead");
        assertThat(letter.lastError()).as("%s: the reason kept", on).isEqualTo("410 gone");
        assertThat(letter.attempts()).as("%s: attempts of the dead letter", on).isEqualTo(1);
        assertThat(queue.deadLetters().revive(letter)).as("%s: revive", on).isTrue();
        assertThat(queue.deadLetters().revive(letter))
            .as("%s: a second revive of the same letter", on)
            .isFalse();
        awaitTrue(
            () ->
                attempts.getOrDefault("dead", List.of()).size() == 2
                    && queue.stats().delivered() == 3,
            "the revived delivery delivered");
        QueueStats stats = queue.stats();
        assertThat(stats.inflight()).as("%s: the unanswered delivery, in flight", on).isEqualTo(1);
        assertThat(stats.retried()).as("%s: retries answered", on).isEqualTo(1);
        assertThat(stats.deadLettered()).as("%s: dead-letters answered", on).isEqualTo(1);
      }
      assertThat(attempts.get("retry"))
          .as("%s: attempts of the retried delivery", on)
          .containsExactly(1L, 2L);
      assertThat(attempts.get("dead"))
          .as("%s: attempts of the dead-lettered one, revived", on)
          .containsExactly(1L, 2L);
      assertThat(attempts.get("leave"))
          .as("%s: the unanswered one, handed out once", on)
          .containsExactly(1L);
      assertCountersEqualFold(t.store(), on + ": with one delivery in flight");
      leaveTheLastOne.set(false);
      try (WebhookQueue queue = open(t.store(), async, answer, pool)) {
        awaitTrue(
            () -> queue.stats().delivered() == 1,
            "the recovered delivery delivered after the next open");
      }
      assertThat(attempts.get("leave"))
          .as("%s: the unanswered one, handed out again after the next open", on)
          .containsExactly(1L, 1L);
      assertStoreDrainedAndClean(t.store(), on);
    }
  }

  /**
   * An asynchronous answer given after the queue that handed the delivery out was closed is refused
   * ({@link StoreClosedException}) and changes nothing: the delivery is handed out again by the
   * next open, whose answer delivers it.
   */
  @Example
  default void anAsynchronousAnswerAfterTheQueueClosedIsRefusedAndTheNextOpenHandsItOutAgain()
      throws Exception {
    String on = backend().name();
    List<Delivery> kept = new CopyOnWriteArrayList<>();
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue = WebhookQueue.openAsync(t.store(), options(), kept::addAll)) {
        queue.ingest(request("late")).join();
        awaitTrue(() -> !kept.isEmpty(), "the delivery handed out");
      }
      Delivery stale = kept.get(0);
      assertThatThrownBy(stale::delivered)
          .as("%s: an answer after close", on)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("stays in flight");
      assertCountersEqualFold(t.store(), on + ": after the refused answer");
      List<Delivery> again = new CopyOnWriteArrayList<>();
      try (WebhookQueue queue =
          WebhookQueue.openAsync(
              t.store(),
              options(),
              deliveries -> {
                again.addAll(deliveries);
                deliveries.forEach(Delivery::delivered);
              })) {
        awaitTrue(
            () -> queue.stats().delivered() == 1, "the delivery handed out again and delivered");
        assertThatThrownBy(stale::delivered)
            .as("%s: the stale delivery, answered while the next queue runs", on)
            .isInstanceOf(StoreClosedException.class);
      }
      assertThat(again)
          .extracting(Delivery::hookId)
          .as("%s: handed out again", on)
          .containsExactly("late");
      assertStoreDrainedAndClean(t.store(), on);
    }
  }

  /**
   * A synchronous handler that throws keeps the answers it gave and leaves the rest in flight; the
   * queue goes on, counting the failure; the next open hands out the rest again. Three deliveries
   * are left in flight by a first queue; the next open's recovery makes them due together, and its
   * handler, handed the three in one call, delivers the first and throws; the open after that
   * delivers the other two.
   */
  @Example
  default void aHandlerThatThrowsLeavesTheRestInFlightAndTheyAreRecovered() throws Exception {
    String on = backend().name();
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue = WebhookQueue.open(t.store(), options(), deliveries -> {})) {
        for (String hook : List.of("h1", "h2", "h3")) {
          queue.ingest(request(hook)).join();
        }
        awaitTrue(() -> queue.stats().inflight() == 3, "three deliveries in flight");
      }
      List<List<String>> calls = new CopyOnWriteArrayList<>();
      try (WebhookQueue queue =
          WebhookQueue.open(
              t.store(),
              options(),
              deliveries -> {
                calls.add(deliveries.stream().map(Delivery::hookId).toList());
                deliveries.get(0).delivered();
                throw new IllegalStateException("a bug in the handler");
              })) {
        awaitTrue(
            () ->
                queue.stats().handlerFailures() >= 1
                    && queue.stats().delivered() == 1
                    && queue.stats().inflight() == 2,
            "the failure counted, and the batch with the answer given before it written");
        QueueStats stats = queue.stats();
        assertThat(calls).as("%s: the handler's calls", on).hasSize(1);
        assertThat(calls.get(0)).as("%s: what the throwing handler was handed", on).hasSize(3);
        assertThat(stats.delivered()).as("%s: delivered before it threw", on).isEqualTo(1);
        assertThat(stats.inflight()).as("%s: left in flight", on).isEqualTo(2);
      }
      List<String> again = new CopyOnWriteArrayList<>();
      try (WebhookQueue queue =
          WebhookQueue.open(
              t.store(),
              options(),
              deliveries -> {
                deliveries.forEach(
                    d -> {
                      again.add(d.hookId());
                      d.delivered();
                    });
              })) {
        awaitTrue(
            () -> queue.stats().delivered() == 2, "the other two delivered after the next open");
      }
      assertThat(again)
          .as("%s: handed out again: the two the throwing handler had not answered", on)
          .containsExactlyInAnyOrderElementsOf(calls.get(0).subList(1, 3));
      assertStoreDrainedAndClean(t.store(), on);
    }
  }

  /**
   * A synchronous handler answers before it returns: a delivery answered after its {@code deliver}
   * returned is refused ({@link StoreArgumentException}) and stays in flight.
   */
  @Example
  default void aSynchronousAnswerAfterDeliverReturnedIsRefused() throws Exception {
    String on = backend().name();
    List<Delivery> kept = new CopyOnWriteArrayList<>();
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue = WebhookQueue.open(t.store(), options(), kept::addAll)) {
        queue.ingest(request("kept")).join();
        awaitTrue(() -> !kept.isEmpty(), "the delivery handed out");
        assertThatThrownBy(() -> kept.get(0).delivered())
            .as("%s: an answer after deliver returned", on)
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("before it returns");
        awaitTrue(() -> queue.stats().inflight() == 1, "the delivery in flight");
      }
      assertCountersEqualFold(t.store(), on);
      assertThat(QueueVerifier.verify(t.store())).as("%s: the verifier", on).isEmpty();
    }
  }

  /**
   * The queue's meters say what its stats say: three deliveries left in flight and two
   * dead-lettered, the meters bound to a registry and refreshed read 3 in flight and 2 dead, and
   * the dead ones' bytes.
   */
  @Example
  default void theMetersReadWhatTheStatsSay() throws Exception {
    String on = backend().name();
    try (TempDirStore t = openQueueStore()) {
      try (WebhookQueue queue =
          WebhookQueue.open(
              t.store(),
              options(),
              deliveries ->
                  deliveries.forEach(
                      d -> {
                        if (d.hookId().startsWith("dead")) {
                          d.deadLetter("410 gone");
                        }
                      }))) {
        for (String hook : List.of("h1", "h2", "h3", "dead1", "dead2")) {
          queue.ingest(request(hook)).join();
        }
        awaitTrue(
            () -> queue.stats().inflight() == 3 && queue.stats().dead() == 2,
            "three in flight and two dead");
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        io.ankusa.store.queue.QueueMeters.bind(queue, registry);
        assertThat(registry.get("ankusa_queue_state").tag("state", "inflight").gauge().value())
            .as("%s: the inflight gauge", on)
            .isEqualTo(3.0);
        assertThat(registry.get("ankusa_queue_state").tag("state", "dead").gauge().value())
            .as("%s: the dead gauge", on)
            .isEqualTo(2.0);
        assertThat(registry.get("ankusa_queue_bytes").gauge().value())
            .as("%s: the bytes gauge", on)
            .isEqualTo((double) queue.stats().bytes());
      }
    }
  }

  /**
   * The queue on {@code store}, answering through {@code answer} on the dispatcher's thread or on
   * {@code pool}'s.
   */
  private WebhookQueue open(
      Store store,
      boolean async,
      java.util.function.Consumer<Delivery> answer,
      java.util.concurrent.ExecutorService pool) {
    if (!async) {
      DeliveryHandler handler = deliveries -> deliveries.forEach(answer);
      return WebhookQueue.open(store, options(), handler);
    }
    AsyncDeliveryHandler handler =
        deliveries ->
            pool.execute(
                () ->
                    deliveries.forEach(
                        d -> {
                          try {
                            answer.accept(d);
                          } catch (StoreClosedException closed) {
                            // the queue closed while this thread answered: the delivery stays in
                            // flight
                          }
                        }));
    return WebhookQueue.openAsync(store, options(), handler);
  }

  private static IngestRequest request(String hookId) {
    return new IngestRequest(
        "acme", "src", hookId, hookId, 1_000_000L, List.of(1), hookId.getBytes());
  }

  private static void assertStoreDrainedAndClean(Store store, String on) {
    assertCountersEqualFold(store, on);
    assertThat(QueueVerifier.verify(store)).as("%s: the verifier", on).isEmpty();
  }

  /**
   * Waits until {@code done} holds, up to the suite's thread wait; fails naming {@code what} when
   * it does not.
   */
  private static void awaitTrue(BooleanSupplier done, String what) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(LayoutAssertions.THREAD_WAIT_SECONDS);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > until) {
        throw new AssertionError(
            "waited " + LayoutAssertions.THREAD_WAIT_SECONDS + " s for " + what);
      }
      Thread.sleep(2);
    }
  }
}
