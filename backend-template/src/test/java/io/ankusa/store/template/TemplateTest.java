package io.ankusa.store.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The skeleton keeps its promise: every method of {@link Store} and the provider's {@code open}
 * throws, naming a step of docs/writing-a-backend.md that exists under that number and title, and the
 * skeleton is never found by name.
 */
class TemplateTest {
  private static final Pattern STEP = Pattern.compile("docs/writing-a-backend\\.md, step (\\d+) \\(([^)]*)\\)");

  @Test
  void everyStoreMethodThrowsNamingItsStep() throws Exception {
    String guide = Files.readString(guide());
    TemplateStore store = new TemplateStore();
    int checked = 0;
    for (Method m : Store.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.isDefault()) {
        continue;
      }
      Object[] args = new Object[m.getParameterCount()];
      Throwable thrown;
      try {
        m.invoke(store, args);
        thrown = null;
      } catch (InvocationTargetException e) {
        thrown = e.getCause();
      }
      assertThat(thrown).as("Store.%s of the skeleton must throw", m.getName()).isInstanceOf(UnsupportedOperationException.class);
      assertNamesAStepOfTheGuide(thrown.getMessage(), guide);
      checked++;
    }
    assertThat(checked).as("every method of Store and ReadView").isGreaterThanOrEqualTo(12);
  }

  @Test
  void theProviderThrowsNamingStepOneAndIsNotRegistered() throws IOException {
    Throwable thrown = catchThrowable(() -> new TemplateStoreProvider().open(Path.of("x"), StoreOptions.defaults(), List.of()));
    assertThat(thrown).isInstanceOf(UnsupportedOperationException.class);
    assertNamesAStepOfTheGuide(thrown.getMessage(), Files.readString(guide()));
    assertThat(thrown.getMessage()).contains("step 1 ");
    assertThat(StoreProvider.available()).doesNotContain(TemplateStoreProvider.NAME);
  }

  private static void assertNamesAStepOfTheGuide(String message, String guide) {
    Matcher m = STEP.matcher(message);
    assertThat(m.find()).as("'%s' names a step of the guide", message).isTrue();
    assertThat(guide).as("the guide has a heading for step %s", m.group(1)).containsPattern("(?m)^## " + m.group(1) + "\\. ");
  }

  private static Path guide() {
    Path p = Path.of("..", "docs", "writing-a-backend.md");
    assertThat(p).as("run from the module directory, as Maven does").exists();
    return p;
  }
}
