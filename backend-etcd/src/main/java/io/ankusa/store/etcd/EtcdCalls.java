package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.common.exception.EtcdException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Every call to the cluster goes through here: it waits for the answer at most the request timeout
 * ({@code etcd.requestTimeoutMs}), so no call hangs however the cluster fails, and maps etcd's
 * errors to the SPI's exceptions in one place.
 *
 * <ul>
 *   <li>no answer in time, no leader, a member gone: on a write {@link StoreWriteFailedException}
 *       (the transaction may or may not be applied: the caller treats it as not acknowledged and
 *       calls {@code reportWriteFailure}); on a read {@link StoreException};
 *   <li>{@code mvcc: database space exceeded} (the cluster's size quota): {@link
 *       StoreFullException}, the transaction was not applied;
 *   <li>{@code too many operations in txn request} and {@code request is too large} (the members'
 *       {@code --max-txn-ops} and {@code --max-request-bytes}): {@link StoreArgumentException}, the
 *       batch is refused whole and nothing of it was applied;
 *   <li>a read of a compacted revision: {@link StoreException} saying the view is too old.
 * </ul>
 */
final class EtcdCalls {
  private EtcdCalls() {}

  /** What a call was, for messages: a write (may be applied after a failure) or a read. */
  enum Kind {
    WRITE,
    READ
  }

  /** The answer of {@code call}, waited for at most {@code timeoutMs}. */
  static <T> T await(
      CompletableFuture<T> call, long timeoutMs, Kind kind, String what, String cluster) {
    try {
      return call.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw failure(
          kind,
          what,
          cluster,
          "no answer within "
              + timeoutMs
              + " ms (etcd.requestTimeoutMs): the cluster"
              + " may have lost its quorum or its leader",
          e);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw failure(kind, what, cluster, "interrupted while waiting for the cluster", e);
    } catch (ExecutionException e) {
      throw mapped(e.getCause() == null ? e : e.getCause(), kind, what, cluster);
    }
  }

  /**
   * The answer of the call {@code call} makes, asked again while it fails in a way a new leader or
   * a member coming back cures ({@link #passing}), until {@code budgetMs} are spent; each try waits
   * at most {@code timeoutMs}. For reads and for writes that are safe to send twice.
   */
  static <T> T retrying(
      java.util.function.Supplier<CompletableFuture<T>> call,
      long timeoutMs,
      long budgetMs,
      Kind kind,
      String what,
      String cluster) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMs);
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      try {
        return await(call.get(), Math.max(1, Math.min(timeoutMs, left)), kind, what, cluster);
      } catch (StoreException e) {
        if (!passing(e) || System.nanoTime() >= deadline) {
          throw e;
        }
        pauseBeforeRetry();
      }
    }
  }

  /**
   * Whether {@code e} (thrown by {@link #await}) is a failure that passes: no answer in time, no
   * leader, a leader change, a member unreachable. Not: a refusal (too large, no space, compacted).
   */
  static boolean passing(StoreException e) {
    if (e instanceof StoreArgumentException || e instanceof StoreFullException) {
      return false;
    }
    Throwable cause = e.getCause();
    if (cause instanceof TimeoutException) {
      return true;
    }
    String message = String.valueOf(cause == null ? null : cause.getMessage());
    if (cause instanceof CompactedException
        || message.contains("required revision has been compacted")) {
      return false;
    }
    String code;
    if (cause instanceof EtcdException etcd) {
      code = String.valueOf(etcd.getErrorCode());
    } else if (cause instanceof io.grpc.StatusRuntimeException grpc) {
      code = String.valueOf(grpc.getStatus().getCode());
    } else {
      return cause instanceof java.io.IOException;
    }
    return switch (code) {
      case "UNAVAILABLE", "DEADLINE_EXCEEDED", "ABORTED", "CANCELLED" -> true;
      case "UNKNOWN", "INTERNAL" ->
          message.contains("timed out")
              || message.contains("leader")
              || message.contains("stopped")
              || message.contains("connection")
              || failedOnTheWire(cause.getCause()); // e.g. the member a channel went to died
      default -> false;
    };
  }

  /**
   * Whether {@code t} or a cause of it is an I/O failure: the transport failed, not the cluster.
   */
  private static boolean failedOnTheWire(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof java.io.IOException) {
        return true;
      }
    }
    return false;
  }

  /** A short pause before asking again, so a cluster electing a leader is not flooded. */
  static void pauseBeforeRetry() {
    try {
      Thread.sleep(50 + java.util.concurrent.ThreadLocalRandom.current().nextInt(50));
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting to ask the etcd cluster again", ie);
    }
  }

  /** The SPI's exception for {@code cause}, an error the cluster (or the client) answered with. */
  static StoreException mapped(Throwable cause, Kind kind, String what, String cluster) {
    String message = String.valueOf(cause.getMessage());
    if (message.contains("database space exceeded")) {
      return new StoreFullException(
          "the etcd cluster "
              + cluster
              + " has no room for "
              + what
              + " ("
              + message
              + "): its size quota (--quota-backend-bytes) is reached and it takes no writes; nothing was applied. Compact"
              + " and defragment the members, raise the quota, then disarm the NOSPACE alarm and write again",
          cause);
    }
    if (message.contains("too many operations in txn request")
        || message.contains("request is too large")) {
      return new StoreArgumentException(
          "the etcd cluster "
              + cluster
              + " refused "
              + what
              + " ("
              + message
              + "); nothing was applied. A batch is one transaction and is never split: raise the members' --max-txn-ops"
              + " and --max-request-bytes, or write smaller batches");
    }
    if (cause instanceof CompactedException
        || message.contains("required revision has been compacted")) {
      return new StoreException(
          "cannot read "
              + what
              + " from the etcd cluster "
              + cluster
              + ": its revision was"
              + " compacted ("
              + message
              + "); the snapshot or scan is older than the history the cluster keeps. Open a"
              + " new one; if another tool compacts this cluster, keep it below the revisions ankusa stores pin",
          cause);
    }
    String code =
        cause instanceof EtcdException e
            ? String.valueOf(e.getErrorCode())
            : cause.getClass().getSimpleName();
    return failure(kind, what, cluster, code + ": " + message, cause);
  }

  private static StoreException failure(
      Kind kind, String what, String cluster, String why, Throwable cause) {
    if (kind == Kind.WRITE) {
      return new StoreWriteFailedException(
          "the etcd cluster "
              + cluster
              + " failed "
              + what
              + " ("
              + why
              + "); it may"
              + " or may not be applied: call reportWriteFailure, treat it as not acknowledged and write it again once the"
              + " cluster answers",
          cause);
    }
    return new StoreException(
        "cannot read "
            + what
            + " from the etcd cluster "
            + cluster
            + " ("
            + why
            + "); check"
            + " that a majority of its members is up, then read again",
        cause);
  }
}
