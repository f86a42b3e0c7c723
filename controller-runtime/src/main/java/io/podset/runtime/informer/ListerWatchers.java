package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.Selection;
import io.podset.runtime.informer.transport.Transports;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Factories of {@link ListerWatcher}s backed by the fabric8 client, configured by {@link
 * InformerOptions}: its namespace, selectors and {@linkplain InformerOptions#watchTransport() watch
 * transport}, and whether its transform drops managed fields (then lists skip them instead of
 * decoding them). The HTTP transport itself is in {@link io.podset.runtime.informer.transport}.
 */
public final class ListerWatchers {

  private ListerWatchers() {}

  /** {@link #forResource(KubernetesClient, Class, InformerOptions, Clock)} on the system clock. */
  public static <T extends HasMetadata> ListerWatcher<T> forResource(
      KubernetesClient client, Class<T> type, InformerOptions options) {
    return forResource(client, type, options, Clock.system());
  }

  /**
   * Lists and watches a typed resource (built-in or a custom resource class), in {@code
   * options.namespace()} or all namespaces, with the options' label and field selectors; see {@link
   * Transports#forType}. With the default transform ({@link InformerOptions#stripManagedFields()},
   * or a {@link Projections} transform not keeping them) the managed fields of listed objects and
   * of watch events over the HTTP stream are skipped rather than decoded and then dropped; with a
   * {@link Projections} transform, so are all the fields it drops. Watches of built-in kinds over
   * the HTTP stream ask for the protobuf encoding, where skipping a field costs nothing.
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped type
   */
  public static <T extends HasMetadata> ListerWatcher<T> forResource(
      KubernetesClient client, Class<T> type, InformerOptions options, Clock clock) {
    Objects.requireNonNull(options, "options");
    return Transports.forType(
        client,
        type,
        selection(options),
        options.watchTransport(),
        dropsManagedFields(options.transform()),
        options.transform() instanceof FieldProjection projection
            ? projection.decodeFilter()
            : null,
        clock);
  }

  /**
   * {@link #forResource(KubernetesClient, ResourceDefinitionContext, InformerOptions, Clock)} on
   * the system clock.
   */
  public static ListerWatcher<GenericKubernetesResource> forResource(
      KubernetesClient client, ResourceDefinitionContext context, InformerOptions options) {
    return forResource(client, context, options, Clock.system());
  }

  /**
   * Lists and watches any resource as {@link GenericKubernetesResource}s, for kinds without a Java
   * class; see {@link Transports#forContext}.
   *
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped resource
   */
  public static ListerWatcher<GenericKubernetesResource> forResource(
      KubernetesClient client,
      ResourceDefinitionContext context,
      InformerOptions options,
      Clock clock) {
    Objects.requireNonNull(options, "options");
    return Transports.forContext(
        client, context, selection(options), options.watchTransport(), clock);
  }

  /** Whether {@code transform} drops managed fields, so that lists need not decode them. */
  static boolean dropsManagedFields(UnaryOperator<HasMetadata> transform) {
    return transform == InformerOptions.stripManagedFields()
        || (transform instanceof FieldProjection projection && !projection.keepsManagedFields());
  }

  private static Selection selection(InformerOptions options) {
    return new Selection(options.namespace(), options.labelSelector(), options.fieldSelector());
  }
}
