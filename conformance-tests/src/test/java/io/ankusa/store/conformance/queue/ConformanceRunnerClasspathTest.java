package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jar} with a backend that has a dependency of its own, as an outside backend has its
 * engine's jar: a tiny backend (a provider and fixtures on the memory backend) whose stores open
 * through a class of a separate "engine" jar, both compiled here, outside this JVM's classpath.
 * Given without the engine jar, the run is bad input naming the missing class and how to give the
 * whole classpath (not a pile of failed properties); given its whole classpath, it passes, also
 * when that classpath repeats the launcher's own jars, as a backend project's full test classpath
 * does.
 */
class ConformanceRunnerClasspathTest {
  private static final Map<String, String> ENGINE =
      Map.of(
          "com/example/engine/TinyEngine.java",
          """
      package com.example.engine;
      /** The engine library the tiny backend needs at run time. */
      public final class TinyEngine {
        public static io.ankusa.store.spi.StoreOptions tune(io.ankusa.store.spi.StoreOptions options) {
          return options;
        }
      }
      """,
          "com/example/engine/EngineProvider.java",
          """
      package com.example.engine;
      /** A provider base class the engine library offers. */
      public abstract class EngineProvider implements io.ankusa.store.spi.StoreProvider {
      }
      """);

  /**
   * A backend whose provider class itself needs the engine: it cannot even be listed without it.
   */
  private static final Map<String, String> BASED_BACKEND =
      Map.of(
          "com/example/based/BasedStoreProvider.java",
          """
      package com.example.based;
      import io.ankusa.store.spi.*;
      import java.nio.file.Path;
      import java.util.List;
      public final class BasedStoreProvider extends com.example.engine.EngineProvider {
        @Override public String name() { return "based"; }
        @Override public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
          return new io.ankusa.store.memory.MemoryStoreProvider().open(dir, options, families);
        }
      }
      """);

  private static final Map<String, String> BACKEND =
      Map.of(
          "com/example/tiny/TinyStoreProvider.java",
              """
      package com.example.tiny;
      import io.ankusa.store.spi.*;
      import java.nio.file.Path;
      import java.util.List;
      /** Memory stores, opened through the engine jar's class. */
      public final class TinyStoreProvider implements StoreProvider {
        private final StoreProvider memory = new io.ankusa.store.memory.MemoryStoreProvider();
        @Override public String name() { return "tiny"; }
        @Override public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
          return memory.open(dir, com.example.engine.TinyEngine.tune(options), families);
        }
      }
      """,
          "com/example/tiny/TinyFixture.java",
              """
      package com.example.tiny;
      import io.ankusa.store.spi.*;
      import java.nio.file.Path;
      /** The tiny backend's fixture: the engine is first needed when a case opens a store. */
      public final class TinyFixture implements io.ankusa.store.conformance.BackendFixture {
        private final StoreProvider provider = new TinyStoreProvider();
        @Override public StoreProvider provider() { return provider; }
        @Override public Capabilities capabilities() { return new io.ankusa.store.conformance.queue.MemoryFixture().capabilities(); }
        @Override public void discard(Path dir) { io.ankusa.store.memory.MemoryStoreProvider.discard(dir); }
      }
      """,
          "com/example/tiny/TunedFixture.java",
              """
      package com.example.tiny;
      import io.ankusa.store.spi.*;
      import java.nio.file.Path;
      /** A fixture that needs the engine as soon as it is made. */
      public final class TunedFixture implements io.ankusa.store.conformance.BackendFixture {
        private final StoreOptions options = com.example.engine.TinyEngine.tune(StoreOptions.defaults());
        private final StoreProvider provider = new TinyStoreProvider();
        @Override public StoreProvider provider() { return provider; }
        @Override public StoreOptions options() { return options; }
        @Override public Capabilities capabilities() { return new io.ankusa.store.conformance.queue.MemoryFixture().capabilities(); }
        @Override public void discard(Path dir) { io.ankusa.store.memory.MemoryStoreProvider.discard(dir); }
      }
      """);
  private static final String ONE_CASE = "familiesAreIndependent";

  @TempDir static Path tmp;
  private static Path engineJar;
  private static Path backendClasses;
  private static Path basedBackendClasses;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void compileTheBackendAndItsEngine() throws IOException {
    Path engineClasses = compile(ENGINE, tmp.resolve("engine-classes"), ownClasspath());
    engineJar = jar(engineClasses, tmp.resolve("tiny-engine.jar"));
    backendClasses =
        compile(
            BACKEND,
            tmp.resolve("backend-classes"),
            ownClasspath() + File.pathSeparator + engineJar);
    register(backendClasses, "com.example.tiny.TinyStoreProvider");
    basedBackendClasses =
        compile(
            BASED_BACKEND,
            tmp.resolve("based-backend-classes"),
            ownClasspath() + File.pathSeparator + engineJar);
    register(basedBackendClasses, "com.example.based.BasedStoreProvider");
  }

  private static void register(Path classes, String provider) throws IOException {
    Path services = classes.resolve("META-INF/services/io.ankusa.store.spi.StoreProvider");
    Files.createDirectories(services.getParent());
    Files.writeString(services, provider + "\n");
  }

  @Test
  void withoutItsEngineJarTheRunIsBadInputNamingTheMissingClass() {
    for (String[] pick :
        new String[][] {{"--fixture", "com.example.tiny.TinyFixture"}, {"--backend", "tiny"}}) {
      out.reset();
      err.reset();
      assertThat(
              run(
                  pick[0],
                  pick[1],
                  "--jar",
                  backendClasses.toString(),
                  "--layer",
                  "engine",
                  "--only",
                  ONE_CASE,
                  "--tries",
                  "3"))
          .as(out() + err())
          .isEqualTo(2);
      assertThat(err())
          .hasLineCount(1)
          .contains(
              "needs the class com.example.engine.TinyEngine, which is not on the" + " classpath")
          .contains("--jar takes the backend's whole classpath")
          .contains("dependency:build-classpath");
      assertThat(out()).contains("RESULT: STOPPED").doesNotContain("RESULT: FAILED");
    }
  }

  @Test
  void aFixtureThatNeedsTheEngineWhenMadeIsRefusedTheSameWay() {
    assertThat(
            run(
                "--fixture",
                "com.example.tiny.TunedFixture",
                "--jar",
                backendClasses.toString(),
                "--layer",
                "engine",
                "--only",
                ONE_CASE))
        .as(out() + err())
        .isEqualTo(2);
    assertThat(err())
        .hasLineCount(1)
        .contains(
            "the fixture com.example.tiny.TunedFixture needs the class"
                + " com.example.engine.TinyEngine");
    assertThat(out()).isEmpty();
  }

  @Test
  void aProviderThatCannotBeLoadedWithoutTheEngineIsRefusedTheSameWay() {
    assertThat(
            run(
                "--backend",
                "based",
                "--jar",
                basedBackendClasses.toString(),
                "--layer",
                "engine",
                "--only",
                ONE_CASE))
        .as(out() + err())
        .isEqualTo(2);
    assertThat(err())
        .hasLineCount(1)
        .contains("a backend's provider needs the class com.example.engine.EngineProvider");
    assertThat(out()).isEmpty();

    err.reset();
    String classpath = basedBackendClasses + File.pathSeparator + engineJar;
    assertThat(
            run(
                "--backend",
                "based",
                "--jar",
                classpath,
                "--layer",
                "engine",
                "--only",
                ONE_CASE,
                "--tries",
                "3"))
        .as(out() + err())
        .isZero();
    assertThat(out()).contains("backend based").contains("RESULT: PASSED");
  }

  @Test
  void withItsWholeClasspathTheBackendRuns() {
    String classpath = backendClasses + File.pathSeparator + engineJar;
    assertThat(
            run(
                "--fixture",
                "com.example.tiny.TunedFixture",
                "--jar",
                classpath,
                "--layer",
                "engine",
                "--only",
                ONE_CASE,
                "--tries",
                "3"))
        .as(out() + err())
        .isZero();
    assertThat(out())
        .contains("backend tiny")
        .contains("cases run   1   passed   1")
        .contains("RESULT: PASSED");
    assertThat(err()).isEmpty();
  }

  /**
   * Its project's test classpath holds the SPI, the suite, JUnit and jqwik too: the launcher's own
   * copies win.
   */
  @Test
  void theClasspathMayRepeatTheLaunchersOwnJars() {
    assertThat(ownClasspath())
        .as("the launcher's own jars, repeated")
        .contains("jqwik")
        .contains("junit-jupiter-api")
        .contains("conformance-engine");
    String classpath =
        String.join(
            File.pathSeparator, backendClasses.toString(), engineJar.toString(), ownClasspath());
    assertThat(
            run(
                "--backend",
                "tiny",
                "--jar",
                classpath,
                "--layer",
                "engine",
                "--only",
                ONE_CASE,
                "--tries",
                "3"))
        .as(out() + err())
        .isZero();
    assertThat(out()).contains("cases run   1   passed   1").contains("RESULT: PASSED");
    assertThat(err()).isEmpty();
  }

  private int run(String... args) {
    return ConformanceRunner.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** This JVM's classpath as its entries, not surefire's manifest-only booter jar. */
  private static String ownClasspath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  private static Path compile(Map<String, String> sources, Path classes, String classpath)
      throws IOException {
    Path src = classes.resolveSibling(classes.getFileName() + "-src");
    List<String> args =
        new ArrayList<>(List.of("-d", classes.toString(), "-cp", classpath, "-proc:none"));
    for (Map.Entry<String, String> s : sources.entrySet()) {
      Path file = src.resolve(s.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, s.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream messages = new ByteArrayOutputStream();
    int code = javac.run(null, messages, messages, args.toArray(String[]::new));
    assertThat(code).as(messages.toString(StandardCharsets.UTF_8)).isZero();
    return classes;
  }

  private static Path jar(Path classes, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(file);
        Stream<Path> walk = Files.walk(classes)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        j.putNextEntry(
            new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
        j.write(Files.readAllBytes(p));
        j.closeEntry();
      }
    }
    return jar;
  }
}
