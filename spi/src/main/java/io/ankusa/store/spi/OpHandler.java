package io.ankusa.store.spi;

/**
 * What to do with each kind of {@link Op}, one method per kind, for {@link Batch#forEach}: a
 * backend's write path is one handler, so a new kind of op does not compile until the backend says
 * what it does with it. The handler may throw a checked exception {@code E} (an engine's own write
 * error), which {@link Batch#forEach} passes on unchanged.
 *
 * @param <E> the checked exception the handler may throw ({@link RuntimeException} when none)
 */
public interface OpHandler<E extends Exception> {
  void put(Op.Put put) throws E;

  void delete(Op.Delete delete) throws E;

  void deleteRange(Op.DeleteRange deleteRange) throws E;

  void merge(Op.Merge merge) throws E;
}
