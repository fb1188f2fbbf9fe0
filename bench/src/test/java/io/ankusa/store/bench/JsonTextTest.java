package io.ankusa.store.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {
  @Test
  void writesEscapedStringsRoundedNumbersAndNullForNonFinite() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "a\"b\\c\nd\u0001");
    m.put("d", 0.1234567891);
    m.put("big", 1234567.0);
    m.put("nan", Double.NaN);
    m.put("n", 42L);
    m.put("l", List.of(1, 2));
    m.put("none", null);
    assertThat(JsonText.of(m))
        .isEqualTo(
            "{\n"
                + "  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n"
                + "  \"d\": 0.123457,\n"
                + "  \"big\": 1234570,\n"
                + "  \"nan\": null,\n"
                + "  \"n\": 42,\n"
                + "  \"l\": [1, 2],\n"
                + "  \"none\": null\n"
                + "}\n");
  }
}
