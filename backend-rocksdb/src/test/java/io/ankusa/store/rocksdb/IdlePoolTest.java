package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool keeps at most its limit idle, hands each object to one caller, and discards the rest. */
class IdlePoolTest {
  @Test
  void keepsAtMostItsLimitAndDiscardsTheRest() {
    List<String> discarded = new ArrayList<>();
    IdlePool<String> pool = new IdlePool<>(2, discarded::add);
    assertThat(pool.poll()).isNull();
    pool.offer("a");
    pool.offer("b");
    pool.offer("c");
    assertThat(discarded).containsExactly("c");
    assertThat(pool.idle()).isEqualTo(2);
    assertThat(pool.poll()).isEqualTo("a");
    assertThat(pool.idle()).isEqualTo(1);
    pool.offer("d");
    pool.close();
    assertThat(discarded).containsExactly("c", "b", "d");
    assertThat(pool.idle()).isZero();
    assertThat(pool.poll()).isNull();
  }

  @Test
  void eachIdleObjectGoesToOneCallerOnly() throws Exception {
    IdlePool<Object> pool = new IdlePool<>(1, o -> {});
    Object only = new Object();
    pool.offer(only);
    Object[] taken = new Object[2];
    Thread a = new Thread(() -> taken[0] = pool.poll());
    Thread b = new Thread(() -> taken[1] = pool.poll());
    a.start();
    b.start();
    a.join();
    b.join();
    assertThat(taken).containsExactlyInAnyOrder(only, null);
  }

  @Test
  void aLimitBelowOneIsRefused() {
    assertThatThrownBy(() -> new IdlePool<>(0, o -> {})).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxIdle 0 is below 1");
  }
}
