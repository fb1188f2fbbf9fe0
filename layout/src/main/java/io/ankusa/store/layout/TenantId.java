package io.ankusa.store.layout;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A tenant id: 1..255 bytes of UTF-8 without NUL, whose string round-trips through UTF-8 (no
 * unpaired surrogates). The NUL rule is what lets dedupe and expiry keys end the tenant with a 0x00
 * byte; the 0xFF-free UTF-8 is what lets {@code 'n' 0xFF} be the hi sentinel of the
 * ordinal-by-tenant family.
 *
 * <p>A hook without a tenant belongs to {@link #DEFAULT} ({@code "default"}). Immutable; equal when
 * the strings are equal.
 */
public final class TenantId implements Comparable<TenantId> {
  /** The name of the tenant of hooks that name none. */
  public static final String DEFAULT_NAME = "default";

  /** The tenant of hooks that name none. */
  public static final TenantId DEFAULT =
      new TenantId(DEFAULT_NAME, DEFAULT_NAME.getBytes(StandardCharsets.UTF_8));

  /** The most bytes of UTF-8 a tenant id may have. */
  public static final int MAX_BYTES = 255;

  private static final String RULE =
      "tenant ids are 1.." + MAX_BYTES + " bytes of UTF-8 without NUL";

  private final String value;
  private final byte[] utf8;

  private TenantId(String value, byte[] utf8) {
    this.value = value;
    this.utf8 = utf8;
  }

  /**
   * The tenant named {@code value}, or {@link #DEFAULT} when {@code value} is null.
   *
   * @throws StoreArgumentException if {@code value} is empty, longer than 255 bytes of UTF-8, holds
   *     a NUL or an unpaired surrogate
   */
  public static TenantId of(String value) {
    if (value == null) {
      return DEFAULT;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\0') {
        throw new StoreArgumentException(
            "tenant id " + quote(value) + " contains NUL at index " + i + "; " + RULE);
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
          i++;
          continue;
        }
        throw unpaired(value, i);
      }
      if (Character.isLowSurrogate(c)) {
        throw unpaired(value, i);
      }
    }
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    requireLength(value, utf8.length);
    return new TenantId(value, utf8);
  }

  /**
   * The tenant whose id is the UTF-8 {@code bytes} (not retained: copied).
   *
   * @throws StoreArgumentException if {@code bytes} is not well-formed UTF-8, is empty, longer than
   *     255 bytes or holds a NUL
   */
  public static TenantId fromUtf8(byte[] bytes) {
    if (bytes == null) {
      throw new StoreArgumentException("tenant id bytes are null; " + RULE);
    }
    String value;
    try {
      value =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new StoreArgumentException(
          "tenant id bytes " + Bytes.hex(bytes) + " are not well-formed UTF-8; " + RULE);
    }
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        throw new StoreArgumentException(
            "tenant id bytes " + Bytes.hex(bytes) + " contain NUL at byte " + i + "; " + RULE);
      }
    }
    requireLength(value, bytes.length);
    return new TenantId(value, bytes.clone());
  }

  private static void requireLength(String value, int byteLength) {
    if (byteLength == 0 || byteLength > MAX_BYTES) {
      throw new StoreArgumentException(
          "tenant id " + quote(value) + " is " + byteLength + " bytes; " + RULE);
    }
  }

  private static StoreArgumentException unpaired(String value, int index) {
    return new StoreArgumentException(
        "tenant id "
            + quote(value)
            + " has an unpaired surrogate at index "
            + index
            + " and cannot be encoded as UTF-8; "
            + RULE);
  }

  /**
   * The id as quoted in messages: escapes control characters and surrogates, cuts after 48 chars.
   */
  private static String quote(String value) {
    StringBuilder sb = new StringBuilder("'");
    int n = Math.min(value.length(), 48);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || Character.isSurrogate(c)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (value.length() > n) {
      sb.append("…");
    }
    return sb.append('\'').toString();
  }

  /** The id as a string. */
  public String value() {
    return value;
  }

  /** The id's UTF-8 bytes: a fresh copy owned by the caller. */
  public byte[] bytes() {
    return utf8.clone();
  }

  /** Number of UTF-8 bytes, 1..255. */
  public int byteLength() {
    return utf8.length;
  }

  /** Whether this is the {@code "default"} tenant. */
  public boolean isDefault() {
    return value.equals(DEFAULT_NAME);
  }

  /** Copies the UTF-8 bytes to {@code out[off..)}; returns the offset after them. */
  int putTo(byte[] out, int off) {
    System.arraycopy(utf8, 0, out, off, utf8.length);
    return off + utf8.length;
  }

  /** Orders as the keys do: by unsigned UTF-8 bytes. */
  @Override
  public int compareTo(TenantId other) {
    return Bytes.compare(utf8, other.utf8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TenantId t && t.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
