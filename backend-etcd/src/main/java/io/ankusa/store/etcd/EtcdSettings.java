package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code etcd.*} options of a store open, parsed and checked in one place.
 *
 * @param endpoints the members' client URLs ({@code etcd.endpoints}, comma-separated {@code
 *     http://HOST:PORT}), or empty: then the endpoints the store directory records
 * @param prefix the key prefix the store lives under ({@code etcd.prefix}), or null: a new store
 *     gets {@code ankusa/<random>/}, an existing one uses the recorded prefix
 * @param leaseTtlSeconds the owner lease's time to live ({@code etcd.leaseTtlSeconds}): how long a
 *     process that stopped renewing it (paused, cut off, dead) keeps the store from a standby
 * @param requestTimeoutMs a write's whole budget, tries sent again included, and the longest wait
 *     of one read try ({@code etcd.requestTimeoutMs}); past it a write fails with {@code
 *     StoreWriteFailedException}. It must outlast a leader election (etcd's election timeout, 1 s
 *     by default, plus a campaign), or the loss of a leader fails writes instead of delaying them
 * @param takeoverWaitMs how long an open waits for another process's ownership to end ({@code
 *     etcd.takeoverWaitMs}); 0 refuses at once
 * @param recoverWaitMs how long {@code reportWriteFailure} waits for the cluster to answer again
 *     ({@code etcd.recoverWaitMs}) before it closes the store
 * @param compactEvery compact the cluster's history once this many revisions were written since the
 *     last compaction ({@code etcd.compactEvery}), never below a revision an open snapshot or scan
 *     reads; 0 never compacts
 */
record EtcdSettings(
    List<URI> endpoints,
    String prefix,
    long leaseTtlSeconds,
    long requestTimeoutMs,
    long takeoverWaitMs,
    long recoverWaitMs,
    long compactEvery) {
  static final String ENDPOINTS = "etcd.endpoints";
  static final String PREFIX = "etcd.prefix";
  static final String LEASE_TTL = "etcd.leaseTtlSeconds";
  static final String REQUEST_TIMEOUT = "etcd.requestTimeoutMs";
  static final String TAKEOVER_WAIT = "etcd.takeoverWaitMs";
  static final String RECOVER_WAIT = "etcd.recoverWaitMs";
  static final String COMPACT_EVERY = "etcd.compactEvery";
  static final List<String> KNOWN =
      List.of(
          ENDPOINTS,
          PREFIX,
          LEASE_TTL,
          REQUEST_TIMEOUT,
          TAKEOVER_WAIT,
          RECOVER_WAIT,
          COMPACT_EVERY);
  static final long DEFAULT_LEASE_TTL_SECONDS = 10;
  static final long DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
  static final long DEFAULT_TAKEOVER_WAIT_MS = 30_000;
  static final long DEFAULT_RECOVER_WAIT_MS = 60_000;
  static final long DEFAULT_COMPACT_EVERY = 10_000;

  /**
   * Printable ASCII without spaces, ending in '/', so a prefix is never a prefix of another
   * store's.
   */
  private static final Pattern PREFIX_SHAPE = Pattern.compile("[!-~]{1,200}/");

  private static final Pattern ENDPOINT_SHAPE = Pattern.compile("https?://[^/\\s,]+");

  /**
   * @throws StoreArgumentException for an unknown {@code etcd.*} option, an endpoint that is not
   *     {@code http(s)://HOST:PORT}, a prefix that does not end in '/', or a number out of range
   */
  static EtcdSettings of(StoreOptions options) {
    options.refuseUnknown("etcd", KNOWN);
    String prefix = blankToNull(options.property(PREFIX, null));
    if (prefix != null) {
      checkPrefix(prefix, "option " + PREFIX);
    }
    return new EtcdSettings(
        endpoints(options.property(ENDPOINTS, null), "option " + ENDPOINTS),
        prefix,
        range(options, LEASE_TTL, DEFAULT_LEASE_TTL_SECONDS, 1, 3600),
        range(options, REQUEST_TIMEOUT, DEFAULT_REQUEST_TIMEOUT_MS, 50, 600_000),
        range(options, TAKEOVER_WAIT, DEFAULT_TAKEOVER_WAIT_MS, 0, 86_400_000),
        range(options, RECOVER_WAIT, DEFAULT_RECOVER_WAIT_MS, 0, 86_400_000),
        range(options, COMPACT_EVERY, DEFAULT_COMPACT_EVERY, 0, Long.MAX_VALUE));
  }

  /** Parses comma-separated endpoints; null or blank is none. */
  static List<URI> endpoints(String text, String where) {
    List<URI> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String part : text.split(",")) {
      String e = part.strip();
      if (e.endsWith("/")) {
        e = e.substring(0, e.length() - 1);
      }
      if (!ENDPOINT_SHAPE.matcher(e).matches()) {
        throw new StoreArgumentException(
            where
                + " has '"
                + part.strip()
                + "', which is not an etcd client URL;"
                + " write them as http://HOST:PORT,http://HOST:PORT");
      }
      out.add(URI.create(e));
    }
    return List.copyOf(out);
  }

  static void checkPrefix(String prefix, String where) {
    if (!PREFIX_SHAPE.matcher(prefix).matches()) {
      throw new StoreArgumentException(
          where
              + "='"
              + prefix
              + "' is not a key prefix this backend uses: 2..201"
              + " printable ASCII characters without spaces, ending in '/'");
    }
  }

  static String joined(List<URI> endpoints) {
    return String.join(",", endpoints.stream().map(URI::toString).toList());
  }

  private static long range(StoreOptions options, String key, long fallback, long min, long max) {
    long v = options.longProperty(key, fallback);
    if (v < min || v > max) {
      throw new StoreArgumentException(
          "option " + key + "=" + v + " is out of range " + min + ".." + max);
    }
    return v;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
