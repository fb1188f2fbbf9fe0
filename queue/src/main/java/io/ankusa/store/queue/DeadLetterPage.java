package io.ankusa.store.queue;

import java.util.List;

/**
 * One page of the dead-letter queue, newest first.
 *
 * @param letters the page's dead letters, newest first
 * @param next where the next page starts ({@link DeadLetterQueue#next(DeadLetterPage.Cursor,
 *     int)}); null when this page was the last
 */
public record DeadLetterPage(List<DeadLetter> letters, Cursor next) {
  public DeadLetterPage {
    letters = List.copyOf(letters);
  }

  /** Whether another page follows. */
  public boolean hasNext() {
    return next != null;
  }

  /**
   * Where a page starts: after the last letter of the page before, for one tenant or all. Opaque.
   */
  public static final class Cursor {
    private final String tenant;
    private final byte[] before;

    Cursor(String tenant, byte[] before) {
      this.tenant = tenant;
      this.before = before.clone();
    }

    String tenant() {
      return tenant;
    }

    byte[] before() {
      return before.clone();
    }
  }
}
