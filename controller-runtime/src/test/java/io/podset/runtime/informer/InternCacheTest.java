package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InternCacheTest {

  @Test
  void intern_givesStringInternsInstance_alsoForStringsSharingASlot() {
    // Strings in one slot of the cache, asked for in turns: each call must still give the
    // canonical instance, whichever string the slot holds.
    List<String> sameSlot = new ArrayList<>();
    int slot = InternCache.slot("label-0");
    for (int i = 0; sameSlot.size() < 3; i++) {
      String s = "label-" + i;
      if (InternCache.slot(s) == slot) {
        sameSlot.add(s);
      }
    }
    for (int round = 0; round < 3; round++) {
      for (String s : sameSlot) {
        String fresh = new String(s.toCharArray());

        String interned = InternCache.intern(fresh);

        assertThat(interned).isEqualTo(s).isSameAs(s.intern());
      }
    }
  }

  @Test
  void intern_ofAStringNotYetInterned_internsIt() {
    String fresh = new String("proj23-not-a-literal-" + System.nanoTime());

    String interned = InternCache.intern(fresh);

    assertThat(interned).isSameAs(fresh.intern());
    assertThat(InternCache.intern(new String(fresh.toCharArray()))).isSameAs(interned);
  }
}
