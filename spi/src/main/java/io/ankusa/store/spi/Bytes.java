package io.ankusa.store.spi;

import java.util.Arrays;
import java.util.Comparator;

/** Byte strings as the contract sees them: compared as unsigned bytes, printed as hex. */
public final class Bytes {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final int HEX_LIMIT = 64;

  /**
   * Unsigned lexicographic order, the order of every key in every backend: 0x80 sorts after 0x7f.
   */
  public static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  private Bytes() {}

  /** Compares two byte strings as unsigned bytes, shorter prefix first. */
  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * Lower-case hex of {@code bytes} for error messages and tools; longer than 64 bytes is cut and
   * marked with the full length. {@code null} prints as {@code null}.
   */
  public static String hex(byte[] bytes) {
    if (bytes == null) {
      return "null";
    }
    int n = Math.min(bytes.length, HEX_LIMIT);
    StringBuilder sb = new StringBuilder(n * 2 + 16);
    for (int i = 0; i < n; i++) {
      sb.append(HEX[(bytes[i] >> 4) & 0xf]).append(HEX[bytes[i] & 0xf]);
    }
    if (bytes.length > HEX_LIMIT) {
      sb.append("…(").append(bytes.length).append(" bytes)");
    }
    return sb.toString();
  }

  /** The full lower-case hex of {@code bytes}, never cut. */
  public static String fullHex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      sb.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
    return sb.toString();
  }

  /** Parses lower- or upper-case hex with an even number of digits. */
  public static byte[] fromHex(String hex) {
    if (hex.length() % 2 != 0) {
      throw new StoreArgumentException("hex string has an odd number of digits: '" + hex + "'");
    }
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(hex.charAt(2 * i), 16);
      int lo = Character.digit(hex.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new StoreArgumentException("not a hex string: '" + hex + "'");
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }
}
