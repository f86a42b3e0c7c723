package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptions;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link PagedListerWatcher}'s pages come from: an {@link HttpListPager}, or fabric8's list
 * call.
 */
interface Pager<T extends HasMetadata> {
  ListPage<T> list(ListRequest request);

  /** The continuation of the last page will not be asked for. */
  default void abandon() {}

  /** See {@link ListerWatcher#latestResourceVersion()}. */
  default @Nullable String latestResourceVersion() {
    return list(new ListRequest("", 1, null)).resourceVersion();
  }

  /** Pages from fabric8's list call, with the selection's selectors. */
  static <T extends HasMetadata> Pager<T> listCall(
      Function<ListOptions, ? extends KubernetesResourceList<T>> lister, Selection selection) {
    Objects.requireNonNull(lister, "lister");
    Objects.requireNonNull(selection, "selection");
    return request -> page(lister.apply(listOptions(request, selection)));
  }

  private static <T extends HasMetadata> ListPage<T> page(KubernetesResourceList<T> list) {
    ListMeta meta = list.getMetadata();
    List<T> items = list.getItems() == null ? List.of() : list.getItems();
    return new ListPage<>(
        items,
        meta == null ? null : meta.getResourceVersion(),
        meta == null ? null : meta.getContinue());
  }

  private static ListOptions listOptions(ListRequest request, Selection selection) {
    ListOptions options = new ListOptions();
    options.setLimit(request.limit());
    if (request.continueToken() != null && !request.continueToken().isEmpty()) {
      options.setContinue(request.continueToken());
    } else if (!request.resourceVersion().isEmpty()) {
      options.setResourceVersion(request.resourceVersion());
    }
    options.setLabelSelector(selection.labelSelector());
    options.setFieldSelector(selection.fieldSelector());
    return options;
  }
}
