package io.ankusa.store.conformance;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child JVMs of the durability and migration layers ({@link DurabilityChild}, {@link
 * MigrationChild}), started with the parent's fixture: the child recreates it by its class name with
 * its no-arg constructor (of any visibility) and opens every store through it, so the fixture's
 * {@link BackendFixture#options()} and {@link BackendFixture#open} hold in the child as they do in
 * the parent. A fixture that the layers of a child JVM run against therefore needs a no-arg
 * constructor, and must be a named class (not anonymous, not an inner class of a test). The generic
 * {@link ProviderFixture} is passed by its backend's name instead.
 *
 * <p>The child's classpath is {@link ChildClasspath#get()}: the parent's plus what the launcher's
 * {@code --jar} loaded.
 */
public final class ChildJvm {
  /** How a {@link ProviderFixture} is named to a child: this prefix and the backend's name. */
  private static final String PROVIDER_PREFIX = "provider:";

  private ChildJvm() {}

  /**
   * Starts {@code main} in a child JVM with {@code fixture}'s description as its first argument and
   * {@code arguments} after it; its output is discarded.
   *
   * @throws IllegalArgumentException if the child could not recreate {@code fixture} (see the class javadoc)
   */
  public static Process start(Class<?> main, BackendFixture fixture, List<String> arguments) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-XX:+IgnoreUnrecognizedVMOptions",
        "--enable-native-access=ALL-UNNAMED", "-cp", ChildClasspath.get(), main.getName(), describe(fixture)));
    command.addAll(arguments);
    return new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** How a child names {@code fixture}: its class name, or {@code provider:NAME} for the generic fixture. */
  static String describe(BackendFixture fixture) {
    if (fixture instanceof ProviderFixture generic) {
      return PROVIDER_PREFIX + generic.provider().name();
    }
    Class<?> type = fixture.getClass();
    boolean named = !type.isAnonymousClass() && !type.isLocalClass()
        && (type.getEnclosingClass() == null || Modifier.isStatic(type.getModifiers()));
    if (!named || noArgConstructor(type) == null) {
      throw new IllegalArgumentException("the fixture " + type.getName() + " (" + fixture.name() + ") cannot be"
          + " recreated in the child JVM of the durability and migration layers: give it a no-arg constructor"
          + " and make it a top-level or static nested class (BackendFixture, docs/writing-a-backend.md)");
    }
    return type.getName();
  }

  /** Recreates the fixture a parent {@link #describe described}, in the child. */
  static BackendFixture recreate(String description) {
    if (description.startsWith(PROVIDER_PREFIX)) {
      return new ProviderFixture(description.substring(PROVIDER_PREFIX.length()));
    }
    try {
      Class<?> type = Class.forName(description, true, Thread.currentThread().getContextClassLoader());
      Constructor<?> constructor = noArgConstructor(type);
      if (constructor == null) {
        throw new IllegalArgumentException(description + " has no no-arg constructor");
      }
      constructor.setAccessible(true);
      return (BackendFixture) constructor.newInstance();
    } catch (ClassNotFoundException | InstantiationException | IllegalAccessException e) {
      throw new IllegalArgumentException("cannot recreate the fixture " + description + " in the child JVM: " + e, e);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("the fixture " + description + "'s constructor threw in the child JVM: "
          + e.getCause(), e.getCause());
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
