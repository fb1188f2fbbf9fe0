package io.ankusa.store.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;

/**
 * The JSON the benches write: maps (insertion order kept), lists, strings, numbers, booleans and
 * null, pretty-printed with two-space indentation. Non-finite doubles are written as null (JSON has
 * no NaN).
 */
public final class JsonText {
  /** Doubles keep six significant digits. */
  private static final MathContext SIGNIFICANT = new MathContext(6);

  private JsonText() {}

  /** {@code value} as JSON text. */
  public static String of(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Double d) {
      sb.append(
          d.isNaN() || d.isInfinite()
              ? "null"
              : new BigDecimal(d).round(SIGNIFICANT).stripTrailingZeros().toPlainString());
    } else if (v instanceof Float f) {
      write(sb, f.doubleValue(), indent);
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        pad(sb, indent + 1);
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue(), indent + 1);
        sb.append(++i < m.size() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append('}');
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        sb.append("[]");
        return;
      }
      boolean flat =
          l.stream()
              .allMatch(x -> x instanceof Number || x instanceof String || x instanceof Boolean);
      sb.append(flat ? "[" : "[\n");
      for (int i = 0; i < l.size(); i++) {
        if (!flat) {
          pad(sb, indent + 1);
        }
        write(sb, l.get(i), indent + 1);
        if (i + 1 < l.size()) {
          sb.append(flat ? ", " : ",\n");
        }
      }
      if (!flat) {
        sb.append('\n');
        pad(sb, indent);
      }
      sb.append(']');
    } else {
      string(sb, v.toString());
    }
  }

  private static void pad(StringBuilder sb, int indent) {
    sb.append("  ".repeat(indent));
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }
}
