package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The two suite modules own their packages: no package is in both the engine's classes ({@code
 * io.ankusa.store.conformance}, conformance-engine) and the queue layers' ({@code
 * io.ankusa.store.conformance.queue} and below, conformance-tests). A package split across two jars
 * breaks the module path, and hides which jar a class comes from.
 */
class SuitePackagesTest {

  @Test
  void theEngineModuleAndThisModuleShareNoPackage() throws Exception {
    Set<String> engine = packagesOf(BackendFixture.class);
    Set<String> layers = packagesOf(AllLayersConformance.class);
    assertThat(engine).as("conformance-engine's packages").contains("io.ankusa.store.conformance");
    assertThat(layers)
        .as("conformance-tests' packages")
        .contains(
            "io.ankusa.store.conformance.queue", "io.ankusa.store.conformance.queue.fixtures");
    assertThat(layers)
        .as("packages both in conformance-engine %s and conformance-tests %s", engine, layers)
        .doesNotContainAnyElementsOf(engine);
    assertThat(layers)
        .as("conformance-tests keeps its classes under io.ankusa.store.conformance.queue")
        .allMatch(
            p ->
                p.equals("io.ankusa.store.conformance.queue")
                    || p.startsWith("io.ankusa.store.conformance.queue."));
  }

  /** The packages of every class in the jar or class directory {@code type} was loaded from. */
  private static Set<String> packagesOf(Class<?> type) throws IOException, URISyntaxException {
    Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> packages = new TreeSet<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        files
            .filter(p -> p.toString().endsWith(".class"))
            .map(
                p ->
                    location
                        .relativize(p.getParent() == null ? location : p.getParent())
                        .toString())
            .forEach(
                dir -> packages.add(dir.replace(location.getFileSystem().getSeparator(), ".")));
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        jar.stream()
            .map(e -> e.getName())
            .filter(n -> n.endsWith(".class") && n.contains("/"))
            .forEach(n -> packages.add(n.substring(0, n.lastIndexOf('/')).replace('/', '.')));
      }
    }
    packages.remove("");
    packages.remove("META-INF.versions");
    return packages;
  }
}
