package io.ankusa.store.template;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * Step 1 of docs/writing-a-backend.md: the provider. Copy this module, rename the package and the
 * classes, give {@link #name()} your backend's name and list the provider in {@code
 * META-INF/services/io.ankusa.store.spi.StoreProvider} (the skeleton is not listed, so it is never
 * found by name). {@link #open} then checks its arguments ({@code FamilyCatalog.checkOpenArguments}),
 * builds a {@code FamilyCatalog}, refuses unknown options and claims the directory ({@code
 * DirectoryClaim.openStore}) before it opens the engine and returns a {@link TemplateStore}. Both
 * come from the backend kit (module {@code backend-kit}, packages {@code io.ankusa.store.kit} and
 * {@code io.ankusa.store.kit.directory}), which this module already depends on.
 */
public final class TemplateStoreProvider implements StoreProvider {
  /** The skeleton's name; yours is what users pass to {@code StoreProvider.named}. */
  public static final String NAME = "template";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    throw Step.PROVIDER.notYet("TemplateStoreProvider.open");
  }
}
