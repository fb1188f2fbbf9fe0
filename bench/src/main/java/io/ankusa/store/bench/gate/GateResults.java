package io.ankusa.store.bench.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a gate run measured, and the verdicts: per bench and backend, {@link GateRule} applied
 * to that backend's cells. The run passes iff every (bench, backend) verdict passes.
 */
public final class GateResults {
  private final GateMode mode;
  private final GateRule rule;
  private final List<TickProbe> probes;
  private final List<CellResult> cells = new ArrayList<>();

  public GateResults(GateMode mode, GateRule rule, List<TickProbe> probes) {
    this.mode = mode;
    this.rule = rule;
    this.probes = List.copyOf(probes);
  }

  public void add(CellResult cell) {
    cells.add(cell);
  }

  public GateMode mode() {
    return mode;
  }

  public GateRule rule() {
    return rule;
  }

  public List<TickProbe> probes() {
    return probes;
  }

  /** The cells of {@code bench}, in measurement order. */
  public List<CellResult> cells(String bench) {
    List<CellResult> out = new ArrayList<>();
    for (CellResult c : cells) {
      if (c.bench().equals(bench)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The backends measured for {@code bench}, in order. */
  public Set<String> backends(String bench) {
    Set<String> out = new LinkedHashSet<>();
    cells(bench).forEach(c -> out.add(c.backend()));
    return out;
  }

  /** The cells of {@code bench} on {@code backend}. */
  public List<CellResult> cells(String bench, String backend) {
    List<CellResult> out = new ArrayList<>();
    for (CellResult c : cells(bench)) {
      if (c.backend().equals(backend)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The verdict on {@code bench} for {@code backend}. */
  public GateRule.Verdict verdict(String bench, String backend) {
    List<Double> values = new ArrayList<>();
    List<Double> loads = new ArrayList<>();
    List<GateRule.WriterConditions> writers = new ArrayList<>();
    for (CellResult c : cells(bench, backend)) {
      values.add(c.valueMs());
      loads.add(c.loadFraction());
      writers.add(c.writerConditions());
    }
    return rule.judge(values, loads, writers);
  }

  /** Every verdict, keyed {@code bench/backend}. */
  public Map<String, GateRule.Verdict> verdicts() {
    Map<String, GateRule.Verdict> out = new LinkedHashMap<>();
    for (TickProbe p : probes) {
      for (String backend : backends(p.bench())) {
        out.put(p.bench() + "/" + backend, verdict(p.bench(), backend));
      }
    }
    return out;
  }

  /** Whether every verdict passed (and there was at least one). */
  public boolean pass() {
    Map<String, GateRule.Verdict> v = verdicts();
    return !v.isEmpty() && v.values().stream().allMatch(GateRule.Verdict::pass);
  }
}
