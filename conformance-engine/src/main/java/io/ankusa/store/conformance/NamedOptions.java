package io.ankusa.store.conformance;

import io.ankusa.store.spi.StoreOptions;

/**
 * One option set a fixture offers the suite ({@link BackendFixture#optionSets()}): a name that
 * every failure under it prints and the op log records, and the {@link StoreOptions} its stores
 * open with.
 *
 * @param name short, one word ({@code [A-Za-z0-9._-]+}): it is written into op logs and file names
 * @param options the options of every store opened under this set
 */
public record NamedOptions(String name, StoreOptions options) {
  /**
   * The name of the set every fixture offers first: the fixture's own {@link
   * BackendFixture#options()}.
   */
  public static final String DEFAULT = "default";

  public NamedOptions {
    if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "an option set's name is one word of [A-Za-z0-9._-], got '" + name + "'");
    }
    if (options == null) {
      throw new IllegalArgumentException("option set '" + name + "' has no options");
    }
  }

  /** Whether this is the fixture's default set. */
  public boolean isDefault() {
    return name.equals(DEFAULT);
  }

  /**
   * This set with only the properties whose value differs from {@code base} (a fixture's default
   * options): what an op log records, so it names what the set changes and never copies what the
   * fixture passes to every store (a server's address, a password).
   */
  public NamedOptions relativeTo(StoreOptions base) {
    StoreOptions changed = StoreOptions.defaults();
    for (var e : options.properties().entrySet()) {
      if (!e.getValue().equals(base.properties().get(e.getKey()))) {
        changed = changed.with(e.getKey(), e.getValue());
      }
    }
    return new NamedOptions(name, changed);
  }

  /** {@code option set NAME}: the name only, never the properties (they may hold a password). */
  @Override
  public String toString() {
    return "option set " + name;
  }
}
