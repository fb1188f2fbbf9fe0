package io.ankusa.store.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints on every command: the project's version, which Maven writes into
 * the resource {@value #RESOURCE} when it builds this module (resource filtering in cli/pom.xml),
 * so it is right from a jar and from {@code target/classes} (the launcher's) alike; and the JVM it
 * runs on.
 */
final class AnkusaStoreVersion implements IVersionProvider {
  static final String RESOURCE = "version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {
      "ankusa-store " + projectVersion(),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }

  /** The project's version, from the resource the build filled in. */
  static String projectVersion() {
    Properties p = new Properties();
    try (InputStream in = AnkusaStoreVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE
                + " is missing from the classpath next to "
                + AnkusaStoreVersion.class.getName()
                + "; rebuild the cli module");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String version = p.getProperty("version", "");
    if (version.isBlank() || version.contains("${")) {
      throw new IllegalStateException(
          RESOURCE
              + " holds no version ('"
              + version
              + "'): the build did not filter"
              + " it; rebuild the cli module with Maven");
    }
    return version;
  }
}
