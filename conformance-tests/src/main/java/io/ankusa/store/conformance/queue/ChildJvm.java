package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.ChildClasspath;
import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The child JVMs of the durability and migration layers ({@link DurabilityChild}, {@link
 * MigrationChild}), started with the parent's fixture: the child recreates it by its class name
 * with its no-arg constructor (of any visibility) and opens every store through it ({@link
 * #fixtureInChild}), so the fixture's {@link BackendFixture#options()} and {@link
 * BackendFixture#open} hold in the child as they do in the parent. The options are the ones the
 * parent's fixture returned, handed to the child as system properties: a fixture whose options
 * point at a resource of the test JVM (the postgres fixture's server) gets that resource in the
 * child too, not a new one. A fixture that overrides {@code open} has it called in the child, with
 * whatever its {@code options()} say there. A fixture that the layers of a child JVM run against
 * therefore needs a no-arg constructor, and must be a named class (not anonymous, not an inner
 * class of a test). The generic {@link ProviderFixture} is passed by its backend's name instead.
 *
 * <p>The child's classpath is {@link ChildClasspath#get()}: the parent's plus what the launcher's
 * {@code --jar} loaded.
 */
public final class ChildJvm {
  /**
   * The system properties of a child JVM that carry the parent fixture's options: this prefix and
   * the key.
   */
  private static final String OPTION_PREFIX = "ankusa.child.option.";

  /** The system properties of a child JVM that carry the parent fixture's two option flags. */
  private static final String CREATE_IF_MISSING = "ankusa.child.createIfMissing";

  private static final String READ_ONLY = "ankusa.child.readOnly";

  /** How a {@link ProviderFixture} is named to a child: this prefix and the backend's name. */
  private static final String PROVIDER_PREFIX = "provider:";

  private ChildJvm() {}

  /**
   * Starts {@code main} in a child JVM with {@code fixture}'s description as its first argument and
   * {@code arguments} after it; its output is discarded.
   *
   * @throws IllegalArgumentException if the child could not recreate {@code fixture} (see the class
   *     javadoc)
   */
  public static Process start(Class<?> main, BackendFixture fixture, List<String> arguments)
      throws IOException {
    String java = ChildJvmLauncher.java();
    String description = describe(fixture);
    StoreOptions options = fixture.options();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-XX:+IgnoreUnrecognizedVMOptions",
                "--enable-native-access=ALL-UNNAMED",
                "-D" + CREATE_IF_MISSING + "=" + options.createIfMissing(),
                "-D" + READ_ONLY + "=" + options.readOnly()));
    options.properties().forEach((k, v) -> command.add("-D" + OPTION_PREFIX + k + "=" + v));
    command.addAll(List.of("-cp", ChildClasspath.get(), main.getName(), description));
    command.addAll(arguments);
    return ChildJvmLauncher.start(
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD));
  }

  /**
   * How a child names {@code fixture}: its class name, or {@code provider:NAME} for the generic
   * fixture.
   */
  static String describe(BackendFixture fixture) {
    if (fixture instanceof ProviderFixture generic) {
      return PROVIDER_PREFIX + generic.provider().name();
    }
    Class<?> type = fixture.getClass();
    boolean named =
        !type.isAnonymousClass()
            && !type.isLocalClass()
            && (type.getEnclosingClass() == null || Modifier.isStatic(type.getModifiers()));
    if (!named || noArgConstructor(type) == null) {
      throw new IllegalArgumentException(
          "the fixture "
              + type.getName()
              + " ("
              + fixture.name()
              + ") cannot be"
              + " recreated in the child JVM of the durability and migration layers: give it a no-arg constructor"
              + " and make it a top-level or static nested class (BackendFixture, docs/writing-a-backend.md)");
    }
    return type.getName();
  }

  /**
   * In a child JVM {@link #start started}: the parent's fixture, recreated from its {@code
   * description}, with the options the parent's fixture returned.
   */
  static BackendFixture fixtureInChild(String description) {
    BackendFixture fixture = recreate(description);
    Map<String, String> properties = new TreeMap<>();
    System.getProperties().stringPropertyNames().stream()
        .filter(k -> k.startsWith(OPTION_PREFIX))
        .forEach(k -> properties.put(k.substring(OPTION_PREFIX.length()), System.getProperty(k)));
    StoreOptions parent =
        new StoreOptions(
            Boolean.parseBoolean(System.getProperty(CREATE_IF_MISSING, "true")),
            Boolean.parseBoolean(System.getProperty(READ_ONLY, "false")),
            properties);
    return overridesOpen(fixture) ? fixture : new WithOptions(fixture, parent);
  }

  private static boolean overridesOpen(BackendFixture fixture) {
    try {
      return fixture.getClass().getMethod("open", Path.class, List.class).getDeclaringClass()
          != BackendFixture.class;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("BackendFixture.open(Path, List) is gone", e);
    }
  }

  /** A fixture with the options its parent's copy returned; the rest is the fixture's own. */
  private record WithOptions(BackendFixture fixture, StoreOptions options)
      implements BackendFixture {
    @Override
    public StoreProvider provider() {
      return fixture.provider();
    }

    @Override
    public Capabilities capabilities() {
      return fixture.capabilities();
    }

    @Override
    public String name() {
      return fixture.name();
    }
  }

  /** Recreates the fixture a parent {@link #describe described}. */
  static BackendFixture recreate(String description) {
    if (description.startsWith(PROVIDER_PREFIX)) {
      return new ProviderFixture(description.substring(PROVIDER_PREFIX.length()));
    }
    try {
      Class<?> type =
          Class.forName(description, true, Thread.currentThread().getContextClassLoader());
      Constructor<?> constructor = noArgConstructor(type);
      if (constructor == null) {
        throw new IllegalArgumentException(description + " has no no-arg constructor");
      }
      constructor.setAccessible(true);
      return (BackendFixture) constructor.newInstance();
    } catch (ClassNotFoundException | InstantiationException | IllegalAccessException e) {
      throw new IllegalArgumentException(
          "cannot recreate the fixture " + description + " in the child JVM: " + e, e);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(
          "the fixture " + description + "'s constructor threw in the child JVM: " + e.getCause(),
          e.getCause());
    }
  }

  private static Constructor<?> noArgConstructor(Class<?> type) {
    try {
      return type.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
