package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchHandle;
import io.podset.runtime.informer.transport.WatchListener;
import io.podset.runtime.informer.transport.WatchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PagedListTest {

  /** Two pages ("a", "b" then "c"), recording requests and abandoned lists. */
  private static final class TwoPages implements ListerWatcher<Pod> {
    final List<ListRequest> requests = new ArrayList<>();
    int abandoned;

    @Override
    public ListPage<Pod> list(ListRequest request) {
      requests.add(request);
      if (request.continueToken() == null) {
        return new ListPage<>(List.of(Pods.pod("a", "1"), Pods.pod("b", "2")), "9", "t1");
      }
      return new ListPage<>(List.of(Pods.pod("c", "3")), "9", null);
    }

    @Override
    public void abandonList() {
      abandoned++;
    }

    @Override
    public WatchHandle watch(WatchRequest request, WatchListener<Pod> listener) {
      throw new UnsupportedOperationException("lists only");
    }

    @Override
    public String description() {
      return "two pages";
    }
  }

  @Test
  void read_followsContinueTokens_inOrder_withoutAVersionOnLaterPages() {
    TwoPages pages = new TwoPages();

    PagedList.Result<Pod> result =
        new PagedList<>(pages, UnaryOperator.identity(), 2)
            .read("0", () -> false, (e, attempt) -> false);

    assertThat(result.items())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("a", "b", "c");
    assertThat(result.resourceVersion()).isEqualTo("9");
    assertThat(pages.requests)
        .containsExactly(new ListRequest("0", 2, null), new ListRequest("", 2, "t1"));
    assertThat(pages.abandoned).isZero();
  }

  @Test
  void read_stoppedMidList_returnsNull_andAbandonsTheContinuation() {
    TwoPages pages = new TwoPages();
    AtomicBoolean stopped = new AtomicBoolean();
    UnaryOperator<Pod> stopAfterFirstPage =
        pod -> {
          stopped.set(true);
          return pod;
        };

    PagedList.Result<Pod> result =
        new PagedList<>(pages, stopAfterFirstPage, 2)
            .read("0", stopped::get, (e, attempt) -> false);

    assertThat(result).isNull();
    assertThat(pages.requests).hasSize(1);
    assertThat(pages.abandoned).isEqualTo(1);
  }
}
