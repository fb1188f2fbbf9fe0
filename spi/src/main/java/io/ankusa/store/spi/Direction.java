package io.ankusa.store.spi;

/** Scan order over a key range: ascending or descending unsigned byte order. */
public enum Direction {
  FORWARD,
  REVERSE
}
