package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreException;
import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster of etcd members on 127.0.0.1, run as child processes of this JVM from the {@code etcd}
 * binary (Debian's {@code etcd-server} package): for the tests, the benches and {@code ankusa-store
 * demo --backend etcd}. Each member has a data directory {@code BASE/mN} and a log {@code
 * BASE/mN.log}; members listen on free loopback ports, recorded in {@code BASE/}{@value #LAYOUT} so
 * that a cluster started again on the same directory comes back as the same members on the same
 * ports. Members keep etcd's own fsync of their write-ahead log, so a kill -9 of any of them (or of
 * all) loses no acknowledged transaction.
 *
 * <p>Started with the limits a batch of the queue's writer needs ({@link Limits}): the members'
 * {@code --max-txn-ops} and {@code --max-request-bytes} bound one transaction, and this backend
 * never splits a batch.
 *
 * <p>Ownership: the caller closes it, which kills the members (their data directories stay, for a
 * restart; {@link #delete()} removes them). A JVM shutdown hook kills members left running.
 */
public final class LocalEtcdCluster implements AutoCloseable {
  /** The system property naming the etcd binary; default: {@code etcd} found on the PATH. */
  public static final String BINARY_PROPERTY = "ankusa.etcd.binary";

  /** The file under the cluster's directory that records its members and ports, for a restart. */
  static final String LAYOUT = "cluster.properties";

  private static final Logger LOG = LoggerFactory.getLogger(LocalEtcdCluster.class);

  /**
   * The members' settings that matter to the backend.
   *
   * @param maxTxnOps {@code --max-txn-ops}: most ops (and compares) in one transaction
   * @param maxRequestBytes {@code --max-request-bytes}: largest request
   * @param quotaBackendBytes {@code --quota-backend-bytes}: the database size at which the cluster
   *     stops taking writes (NOSPACE)
   * @param heartbeatMs {@code --heartbeat-interval}
   * @param electionMs {@code --election-timeout}: how long followers wait for a dead leader
   */
  public record Limits(
      int maxTxnOps,
      long maxRequestBytes,
      long quotaBackendBytes,
      int heartbeatMs,
      int electionMs) {
    /**
     * What the queue's writer needs: groups of 256 hooks of up to 1 MiB payload, in 4 MiB groups.
     */
    public static Limits forTheQueue() {
      return new Limits(65_536, 32L << 20, 8L << 30, 100, 1000);
    }
  }

  /** One member: its name, ports, data directory and process (null while down). */
  public static final class Member {
    final String name;
    final int clientPort;
    final int peerPort;
    final Path dataDir;
    Process process;

    Member(String name, int clientPort, int peerPort, Path dataDir) {
      this.name = name;
      this.clientPort = clientPort;
      this.peerPort = peerPort;
      this.dataDir = dataDir;
    }

    public String name() {
      return name;
    }

    public URI clientUrl() {
      return URI.create("http://127.0.0.1:" + clientPort);
    }

    public boolean running() {
      return process != null && process.isAlive();
    }

    /** The member's process id, or -1 while down. */
    public long pid() {
      return running() ? process.pid() : -1;
    }
  }

  private final Path base;
  private final Path binary;
  private final Limits limits;
  private final List<Member> members;
  private final String token;
  private final Thread killer = new Thread(this::killAll, "ankusa-etcd-cluster-stop");

  private LocalEtcdCluster(
      Path base, Path binary, Limits limits, List<Member> members, String token) {
    this.base = base;
    this.binary = binary;
    this.limits = limits;
    this.members = members;
    this.token = token;
  }

  /**
   * The etcd binary: the {@value #BINARY_PROPERTY} property's, else {@code etcd} on the PATH; empty
   * if none.
   */
  public static Optional<Path> binary() {
    String named = System.getProperty(BINARY_PROPERTY);
    if (named != null && !named.isBlank()) {
      Path p = Path.of(named);
      return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String d : path.split(File.pathSeparator)) {
      Path p = Path.of(d.isEmpty() ? "." : d, "etcd");
      if (Files.isExecutable(p) && !Files.isDirectory(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /**
   * Starts {@code size} members with data under {@code base} (created), or the members a cluster
   * started there before recorded (restarted from their data directories), and waits until the
   * cluster answers a linearizable read.
   *
   * @throws StoreException when there is no etcd binary, or the cluster does not answer within 60 s
   */
  public static LocalEtcdCluster start(Path base, int size, Limits limits) {
    Path binary =
        binary()
            .orElseThrow(
                () ->
                    new StoreException(
                        "etcd not found on PATH (apt-get install"
                            + " etcd-server), nor named by -D"
                            + BINARY_PROPERTY));
    List<Member> members = new ArrayList<>();
    String token;
    Path layout = base.resolve(LAYOUT);
    try {
      Files.createDirectories(base);
      java.util.Properties p = new java.util.Properties();
      if (Files.exists(
          layout)) { // a cluster started here before: the same members on the same ports
        try (var in = Files.newBufferedReader(layout)) {
          p.load(in);
        }
        size = Integer.parseInt(p.getProperty("members"));
        for (int i = 0; i < size; i++) {
          members.add(
              new Member(
                  "m" + i,
                  Integer.parseInt(p.getProperty("m" + i + ".client")),
                  Integer.parseInt(p.getProperty("m" + i + ".peer")),
                  base.resolve("m" + i)));
        }
        token = p.getProperty("token");
      } else {
        token = "ankusa-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        p.setProperty("members", Integer.toString(size));
        p.setProperty("token", token);
        for (int i = 0; i < size; i++) {
          Member m = new Member("m" + i, freePort(), freePort(), base.resolve("m" + i));
          members.add(m);
          p.setProperty("m" + i + ".client", Integer.toString(m.clientPort));
          p.setProperty("m" + i + ".peer", Integer.toString(m.peerPort));
        }
        try (var out = Files.newBufferedWriter(layout)) {
          p.store(
              out,
              "ankusa-store: a local etcd cluster's members and ports, reused when it is started again");
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new StoreException("cannot prepare the etcd cluster's directory " + base + ": " + e, e);
    }
    LocalEtcdCluster cluster = new LocalEtcdCluster(base, binary, limits, members, token);
    Runtime.getRuntime().addShutdownHook(cluster.killer);
    try {
      for (int i = 0; i < size; i++) {
        cluster.startMember(i);
      }
      cluster.awaitQuorum(60_000);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    LOG.info("etcd cluster of {} members on {} (data under {})", size, cluster.endpoints(), base);
    return cluster;
  }

  public List<Member> members() {
    return List.copyOf(members);
  }

  public Member member(int i) {
    return members.get(i);
  }

  public Limits limits() {
    return limits;
  }

  /** The members' client URLs, comma-separated, as {@code etcd.endpoints} takes them. */
  public String endpoints() {
    return String.join(",", members.stream().map(m -> m.clientUrl().toString()).toList());
  }

  /** (Re)starts member {@code i} from its data directory. */
  public synchronized void startMember(int i) {
    Member m = members.get(i);
    if (m.running()) {
      return;
    }
    StringBuilder initial = new StringBuilder();
    for (Member o : members) {
      initial
          .append(initial.length() == 0 ? "" : ",")
          .append(o.name)
          .append("=http://127.0.0.1:")
          .append(o.peerPort);
    }
    List<String> cmd =
        List.of(
            binary.toString(),
            "--name",
            m.name,
            "--data-dir",
            m.dataDir.toString(),
            "--listen-client-urls",
            m.clientUrl().toString(),
            "--advertise-client-urls",
            m.clientUrl().toString(),
            "--listen-peer-urls",
            "http://127.0.0.1:" + m.peerPort,
            "--initial-advertise-peer-urls",
            "http://127.0.0.1:" + m.peerPort,
            "--initial-cluster",
            initial.toString(),
            "--initial-cluster-state",
            "new",
            "--initial-cluster-token",
            token,
            "--max-txn-ops",
            Integer.toString(limits.maxTxnOps()),
            "--max-request-bytes",
            Long.toString(limits.maxRequestBytes()),
            "--quota-backend-bytes",
            Long.toString(limits.quotaBackendBytes()),
            "--heartbeat-interval",
            Integer.toString(limits.heartbeatMs()),
            "--election-timeout",
            Integer.toString(limits.electionMs()),
            "--snapshot-count",
            "10000",
            "--logger",
            "zap",
            "--log-outputs",
            "stderr",
            "--log-level",
            "warn");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(base.resolve(m.name + ".log").toFile()));
    pb.environment().put("ETCD_UNSUPPORTED_ARCH", System.getProperty("os.arch", ""));
    try {
      m.process = pb.start();
    } catch (IOException e) {
      throw new StoreException("cannot start etcd member " + m.name + " (" + binary + "): " + e, e);
    }
  }

  /**
   * SIGKILLs member {@code i} (no shutdown, no flush beyond what etcd fsynced before
   * acknowledging).
   */
  public synchronized void kill(int i) {
    Member m = members.get(i);
    if (m.process != null) {
      m.process.destroyForcibly();
      try {
        m.process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      m.process = null;
    }
  }

  /** SIGKILLs every member at once. */
  public synchronized void killAll() {
    for (Member m : members) {
      if (m.process != null) {
        m.process.destroyForcibly();
      }
    }
    for (int i = 0; i < members.size(); i++) {
      kill(i);
    }
  }

  /** Restarts every member that is down and waits for the quorum. */
  public void restartAll() {
    for (int i = 0; i < members.size(); i++) {
      startMember(i);
    }
    awaitQuorum(60_000);
  }

  /**
   * The index of the current leader, asked of the members' {@code /v3/maintenance/status} (a
   * member's own view, quick); -1 when none answers with a leader.
   */
  public int leader() {
    for (Member m : members) {
      if (!m.running()) {
        continue;
      }
      try {
        String status = post(m, "/v3/maintenance/status", "{}");
        String id = field(status, "member_id");
        String leader = field(status, "leader");
        if (leader != null && !leader.equals("0")) {
          if (leader.equals(id)) {
            return members.indexOf(m);
          }
          for (Member o : members) {
            if (o.running()
                && leader.equals(field(post(o, "/v3/maintenance/status", "{}"), "member_id"))) {
              return members.indexOf(o);
            }
          }
        }
      } catch (IOException e) {
        // this member does not answer; ask another
      }
    }
    return -1;
  }

  /** Waits until some running member answers a linearizable read (a quorum and a leader). */
  public void awaitQuorum(long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    IOException last = null;
    while (System.nanoTime() < deadline) {
      for (Member m : members) {
        if (!m.running()) {
          continue;
        }
        try {
          post(
              m,
              "/v3/kv/range",
              "{\"key\":\""
                  + java.util.Base64.getEncoder()
                      .encodeToString("ankusa-probe".getBytes(StandardCharsets.US_ASCII))
                  + "\"}");
          return;
        } catch (IOException e) {
          last = e;
        }
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new StoreException(
        "the etcd cluster "
            + endpoints()
            + " did not answer a read within "
            + timeoutMs
            + " ms"
            + " (member logs under "
            + base
            + ")"
            + (last == null ? "" : ": " + last),
        last);
  }

  /** A POST to a member's JSON gateway, with a short timeout; the answer's body. */
  private static String post(Member m, String path, String body) throws IOException {
    URL url = URI.create(m.clientUrl() + path).toURL();
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setConnectTimeout(500);
    c.setReadTimeout(1500);
    c.setDoOutput(true);
    c.setRequestMethod("POST");
    c.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    int code = c.getResponseCode();
    if (code != 200) {
      throw new IOException(m.name + " answered " + path + " with HTTP " + code);
    }
    try (var in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String field(String json, String name) {
    int i = json.indexOf("\"" + name + "\":\"");
    if (i < 0) {
      return null;
    }
    int from = i + name.length() + 4;
    return json.substring(from, json.indexOf('"', from));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  public Path base() {
    return base;
  }

  /** Kills the members; their data directories stay. */
  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs anyway
    }
  }

  /** Closes the cluster and deletes its directory. */
  public void delete() {
    close();
    try (var paths = Files.walk(base)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      LOG.debug("could not delete {}", base, e);
    }
  }
}
