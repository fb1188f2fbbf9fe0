package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import net.jqwik.api.Group;

/**
 * Every layer of the conformance suite for one backend, in one test class: a backend author extends
 * this, names the fixture, and {@code mvn verify} runs the engine, layout, transition, dispatch,
 * migration and durability layers against it:
 *
 * <pre>{@code
 * class MyStoreConformanceTest extends AllLayersConformance {
 *   @Override protected BackendFixture fixture() { return new MyFixture(); }
 * }
 * }</pre>
 *
 * <p>Each layer is a jqwik group (a nested class extending that layer's abstract class), so jqwik
 * runs every inherited case of every layer, and a failure is reported under the layer's group and
 * the case's name ({@code Engine > modelBasedRandomBatches}). {@code
 * -Dankusa.conformance.only=Engine} runs one layer, {@code
 * -Dankusa.conformance.only=Engine#modelBasedRandomBatches} one case ({@link
 * io.ankusa.store.conformance.CaseSelection}). The durability and migration layers recreate the
 * fixture in a child JVM, so the fixture needs a no-arg constructor ({@link ChildJvm}). A backend
 * that needs more than a fixture for a layer (another {@code QueueConfig} for the layout layer,
 * say) extends that layer's class instead, one class per layer.
 *
 * <p>Each group calls {@link #fixture()} for its own instance, as separate test classes would.
 */
public abstract class AllLayersConformance {

  /** The backend under test; called once per case of each layer. */
  protected abstract BackendFixture fixture();

  /** The engine layer ({@link EngineConformance}). */
  @Group
  public class Engine extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }

  /** The layout layer ({@link LayoutConformance}). */
  @Group
  public class Layout extends LayoutConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }

  /** The transition layer ({@link TransitionConformance}). */
  @Group
  public class Transition extends TransitionConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }

  /** The dispatch layer ({@link DispatchConformance}). */
  @Group
  public class Dispatch extends DispatchConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }

  /** The migration layer ({@link MigrationConformance}). */
  @Group
  public class Migration extends MigrationConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }

  /** The durability layer ({@link DurabilityConformance}). */
  @Group
  public class Durability extends DurabilityConformance {
    @Override
    protected BackendFixture fixture() {
      return AllLayersConformance.this.fixture();
    }
  }
}
