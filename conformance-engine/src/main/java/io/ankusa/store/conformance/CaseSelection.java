package io.ankusa.store.conformance;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which cases of the suite to run: the value of the system property {@value #PROPERTY} (or the
 * launcher's {@code --only}), a comma-separated list of items, each one of
 *
 * <ul>
 *   <li>{@code method}: every case of that name ({@code modelBasedRandomBatches});
 *   <li>{@code Type#method}: the case of that name in a test class whose class, superclass or
 *       interface is {@code Type}, by simple or full name ({@code
 *       EngineConformance#modelBasedRandomBatches}, {@code ModelCases#modelBasedRandomBatches},
 *       {@code MyEngineConformanceTest#modelBasedRandomBatches});
 *   <li>{@code Type}: every case of such a test class ({@code DurabilityConformance}).
 * </ul>
 *
 * <p>A layer's short name stands for its class: {@code Engine} for {@code EngineConformance},
 * {@code Durability} for {@code DurabilityConformance} (and the groups of {@code
 * AllLayersConformance} are named so), so {@code Engine#modelBasedRandomBatches} selects the same
 * case in every kind of test class and in the launcher.
 *
 * <p>It names inherited cases, which surefire's {@code -Dtest=Class#method} does not find (it runs
 * 0 tests and passes). Owned by whoever built it; immutable.
 *
 * @param items the parsed items, none blank
 */
public record CaseSelection(List<Item> items) {
  /** The system property that selects cases in a surefire run and in the launcher. */
  public static final String PROPERTY = "ankusa.conformance.only";

  /**
   * One item of a selection.
   *
   * @param type a simple or full class name, or null for any class
   * @param method a method name, or null for every case of {@code type}
   */
  public record Item(String type, String method) {
    boolean matches(Class<?> testClass, String methodName) {
      return (method == null || method.equals(methodName))
          && (type == null || isNamedBy(testClass, type));
    }

    @Override
    public String toString() {
      return type == null ? method : method == null ? type : type + "#" + method;
    }
  }

  public CaseSelection {
    items = List.copyOf(items);
    if (items.isEmpty()) {
      throw new IllegalArgumentException("a selection of cases needs at least one item");
    }
  }

  /**
   * Parses {@code text}: items separated by commas, blanks around them ignored.
   *
   * @throws IllegalArgumentException if an item is empty or malformed ({@code #}, {@code A#},
   *     {@code #b#c})
   */
  public static CaseSelection parse(String text) {
    List<Item> items = new ArrayList<>();
    for (String raw : text.split(",")) {
      String item = raw.strip();
      int hash = item.indexOf('#');
      if (item.isEmpty()
          || hash == 0
          || hash == item.length() - 1
          || item.indexOf('#', hash + 1) >= 0) {
        throw new IllegalArgumentException(
            "'"
                + text
                + "' is not a selection of cases: use method,"
                + " Type#method or Type, separated by commas ("
                + PROPERTY
                + ", docs/testing.md)");
      }
      if (hash > 0) {
        items.add(new Item(item.substring(0, hash), item.substring(hash + 1)));
      } else if (Character.isUpperCase(item.codePointAt(item.lastIndexOf('.') + 1))) {
        items.add(new Item(item, null));
      } else {
        items.add(new Item(null, item));
      }
    }
    return new CaseSelection(items);
  }

  /** The selection the system property {@value #PROPERTY} makes, if it is set and not blank. */
  public static Optional<CaseSelection> fromSystemProperty() {
    String value = System.getProperty(PROPERTY, "");
    return value.isBlank() ? Optional.empty() : Optional.of(parse(value));
  }

  /** Whether the case {@code methodName} of the test class {@code testClass} is selected. */
  public boolean matches(Class<?> testClass, String methodName) {
    return items.stream().anyMatch(i -> i.matches(testClass, methodName));
  }

  /**
   * Whether {@code testClass} has a case (a method of any visibility, inherited too) this selection
   * names.
   */
  public boolean matchesAnyCaseOf(Class<?> testClass) {
    return caseNames(testClass).stream().anyMatch(name -> matches(testClass, name));
  }

  /** How a replay names a case: {@code Type#method} with the layer class when there is one. */
  public static String name(Class<?> testClass, String methodName) {
    return testClass.getSimpleName() + "#" + methodName;
  }

  @Override
  public String toString() {
    return String.join(",", items.stream().map(Item::toString).toList());
  }

  private static List<String> caseNames(Class<?> testClass) {
    List<String> names = new ArrayList<>();
    Arrays.stream(testClass.getMethods()).map(Method::getName).forEach(names::add);
    for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
      Arrays.stream(c.getDeclaredMethods()).map(Method::getName).forEach(names::add);
    }
    return names;
  }

  /**
   * Whether {@code type} is the simple or full name of {@code c}, a superclass or an interface of
   * it.
   */
  private static boolean isNamedBy(Class<?> c, String type) {
    if (c == null) {
      return false;
    }
    if (c.getSimpleName().equals(type)
        || c.getSimpleName().equals(type + "Conformance")
        || c.getName().equals(type)
        || c.getName().replace('$', '.').equals(type)) {
      return true;
    }
    if (isNamedBy(c.getSuperclass(), type)) {
      return true;
    }
    return Arrays.stream(c.getInterfaces()).anyMatch(i -> isNamedBy(i, type));
  }
}
