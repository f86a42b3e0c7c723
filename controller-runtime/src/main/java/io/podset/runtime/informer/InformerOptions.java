package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.podset.runtime.informer.transport.WatchTransport;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What an informer watches and how.
 *
 * <p>{@code namespace}, {@code labelSelector} and {@code fieldSelector} choose the objects (and,
 * with the type, identify a shared informer in a {@link SharedInformerFactory}); the rest tunes the
 * informer. Start from {@link #defaults()} or {@link #builder()}, or use the {@code with...}
 * methods.
 *
 * @param namespace the namespace to watch, or null for all namespaces (and cluster-scoped types)
 * @param labelSelector a label selector such as {@code app=web,tier!=db}, or null
 * @param fieldSelector a field selector such as {@code status.phase=Running}, or null
 * @param resyncPeriod the default resync period of handlers; zero for none; a positive period below
 *     one second is raised to one second
 * @param transform applied to each object from the server before it is cached; it may modify the
 *     object in place (the object is fresh from the server and not yet shared) and must return an
 *     instance of the informer's type; default {@link #stripManagedFields()}
 * @param streamingList get the initial state with a streaming list (watch with {@code
 *     sendInitialEvents}) instead of a paginated list, falling back to the list when unsupported
 * @param pageSize page size of lists (default 500)
 * @param watchTransport how the watch reaches the server (default {@link
 *     WatchTransport#HTTP_STREAM})
 */
public record InformerOptions(
    @Nullable String namespace,
    @Nullable String labelSelector,
    @Nullable String fieldSelector,
    Duration resyncPeriod,
    UnaryOperator<HasMetadata> transform,
    boolean streamingList,
    int pageSize,
    WatchTransport watchTransport) {

  /** The smallest resync period; shorter positive periods are raised to it. */
  public static final Duration MIN_RESYNC_PERIOD = Duration.ofSeconds(1);

  private static final UnaryOperator<HasMetadata> STRIP_MANAGED_FIELDS =
      obj -> {
        if (obj.getMetadata() != null) {
          List<ManagedFieldsEntry> managed = obj.getMetadata().getManagedFields();
          if (managed != null && !managed.isEmpty()) {
            obj.getMetadata().setManagedFields(null);
          }
        }
        return obj;
      };

  /**
   * Validates and normalizes: empty selectors and namespace become null; a positive resync below
   * {@link #MIN_RESYNC_PERIOD} is raised to it.
   *
   * @throws NullPointerException if {@code resyncPeriod}, {@code transform} or {@code
   *     watchTransport} is null
   * @throws IllegalArgumentException if {@code resyncPeriod} is negative or {@code pageSize} is not
   *     positive
   */
  public InformerOptions {
    namespace = blankToNull(namespace);
    labelSelector = blankToNull(labelSelector);
    fieldSelector = blankToNull(fieldSelector);
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    Objects.requireNonNull(transform, "transform");
    Objects.requireNonNull(watchTransport, "watchTransport");
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resyncPeriod must not be negative: " + resyncPeriod);
    }
    resyncPeriod = clampResync(resyncPeriod);
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
  }

  /**
   * All namespaces, no selectors, no resync, managed fields stripped, plain paginated lists, HTTP
   * streaming watches.
   */
  public static InformerOptions defaults() {
    return new InformerOptions(
        null,
        null,
        null,
        Duration.ZERO,
        STRIP_MANAGED_FIELDS,
        false,
        500,
        WatchTransport.HTTP_STREAM);
  }

  /** A builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return new Builder(defaults());
  }

  /** The default transform: drops {@code metadata.managedFields}, about half of a Pod's memory. */
  public static UnaryOperator<HasMetadata> stripManagedFields() {
    return STRIP_MANAGED_FIELDS;
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** These options for one namespace (null for all). */
  public InformerOptions withNamespace(@Nullable String ns) {
    return toBuilder().namespace(ns).build();
  }

  /** These options with a label selector (null for none). */
  public InformerOptions withLabelSelector(@Nullable String selector) {
    return toBuilder().labelSelector(selector).build();
  }

  /** These options with a field selector (null for none). */
  public InformerOptions withFieldSelector(@Nullable String selector) {
    return toBuilder().fieldSelector(selector).build();
  }

  /** These options with a default handler resync period (zero for none). */
  public InformerOptions withResyncPeriod(Duration period) {
    return toBuilder().resyncPeriod(period).build();
  }

  /** These options with a transform ({@link UnaryOperator#identity()} to keep objects whole). */
  public InformerOptions withTransform(UnaryOperator<HasMetadata> fn) {
    return toBuilder().transform(fn).build();
  }

  /** These options with the streaming list on or off. */
  public InformerOptions withStreamingList(boolean enabled) {
    return toBuilder().streamingList(enabled).build();
  }

  /** These options with another watch transport. */
  public InformerOptions withWatchTransport(WatchTransport transport) {
    return toBuilder().watchTransport(transport).build();
  }

  static Duration clampResync(Duration period) {
    if (!period.isZero() && period.compareTo(MIN_RESYNC_PERIOD) < 0) {
      return MIN_RESYNC_PERIOD;
    }
    return period;
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value;
  }

  /** A mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private @Nullable String namespace;
    private @Nullable String labelSelector;
    private @Nullable String fieldSelector;
    private Duration resyncPeriod;
    private UnaryOperator<HasMetadata> transform;
    private boolean streamingList;
    private int pageSize;
    private WatchTransport watchTransport;

    private Builder(InformerOptions from) {
      namespace = from.namespace;
      labelSelector = from.labelSelector;
      fieldSelector = from.fieldSelector;
      resyncPeriod = from.resyncPeriod;
      transform = from.transform;
      streamingList = from.streamingList;
      pageSize = from.pageSize;
      watchTransport = from.watchTransport;
    }

    /** The namespace to watch; null or blank for all. */
    public Builder namespace(@Nullable String value) {
      namespace = value;
      return this;
    }

    /** The label selector; null or blank for none. */
    public Builder labelSelector(@Nullable String value) {
      labelSelector = value;
      return this;
    }

    /** The field selector; null or blank for none. */
    public Builder fieldSelector(@Nullable String value) {
      fieldSelector = value;
      return this;
    }

    /**
     * The default handler resync period; zero for none.
     *
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if negative
     */
    public Builder resyncPeriod(Duration value) {
      Objects.requireNonNull(value, "resyncPeriod");
      if (value.isNegative()) {
        throw new IllegalArgumentException("resyncPeriod must not be negative: " + value);
      }
      resyncPeriod = value;
      return this;
    }

    /**
     * The transform applied before caching.
     *
     * @throws NullPointerException if null
     */
    public Builder transform(UnaryOperator<HasMetadata> value) {
      transform = Objects.requireNonNull(value, "transform");
      return this;
    }

    /** Whether to try a streaming list first. */
    public Builder streamingList(boolean value) {
      streamingList = value;
      return this;
    }

    /**
     * The list page size.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder pageSize(int value) {
      if (value <= 0) {
        throw new IllegalArgumentException("pageSize must be positive: " + value);
      }
      pageSize = value;
      return this;
    }

    /**
     * How the watch reaches the server.
     *
     * @throws NullPointerException if null
     */
    public Builder watchTransport(WatchTransport value) {
      watchTransport = Objects.requireNonNull(value, "watchTransport");
      return this;
    }

    /** The options. */
    public InformerOptions build() {
      return new InformerOptions(
          namespace,
          labelSelector,
          fieldSelector,
          resyncPeriod,
          transform,
          streamingList,
          pageSize,
          watchTransport);
    }
  }
}
