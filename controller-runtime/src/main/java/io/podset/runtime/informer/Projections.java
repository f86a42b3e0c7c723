package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Transforms that cache only the fields a controller reads: pass one to {@link
 * InformerOptions#withTransform} and the informer keeps, for each object, a copy holding just the
 * named fields. A Pod as a Deployment creates it retains about 11 KB in our cache (managed fields
 * already stripped); the dozen fields the PodSet operator reads retain about 1.7 KB, indices and
 * informer included (10k pods, {@code benchmarks/run.sh --quick informer}).
 *
 * <pre>{@code
 * InformerOptions options = InformerOptions.defaults().withTransform(
 *     Projections.keep(Pod.class,
 *         "metadata.labels[app]", "metadata.ownerReferences", "spec.nodeName",
 *         "spec.containers.name", "spec.containers.image", "status.phase",
 *         "status.conditions[type=Ready].status"));
 * }</pre>
 *
 * <p>Paths are JSON field names joined by dots; lists are entered without brackets ({@code
 * spec.containers.image} keeps the image of every container, and the list keeps its length and
 * order, so indices stay valid); a path ending at an object, list or map keeps all of it. In
 * brackets, a map field takes one key ({@code metadata.labels[app.kubernetes.io/name]} keeps that
 * label only; the key may contain dots) and a list of objects takes a filter on a string field
 * ({@code status.conditions[type=Ready].status} keeps the Ready condition's type and status, and no
 * other condition: a filtered list is shorter, so its indices are not the server's). Paths on one
 * field add up: a field kept without brackets by one path keeps all its entries. Every projection
 * also keeps {@link #ALWAYS_KEPT}: what informers, the cache's keys, predicates and the
 * read-your-writes barrier rely on. A field not kept reads as it would if the server had not sent
 * it: null, or an empty list or map where fabric8 has one by default.
 *
 * <p>What the cache holds is the informer's type (a {@code Pod} stays a {@code Pod}), and still
 * read-only, now enforced: its lists and maps are immutable (the order of a map's entries is not
 * the server's), so code that would have modified a cached object fails instead. Build a modified
 * object from a copy ({@code new PodBuilder(cached)}), as before. String values are interned
 * (except {@code metadata.name}, {@code uid} and {@code resourceVersion}, unique to each object),
 * so objects of one owner share their label, owner reference and image strings.
 *
 * <p>Works for typed models: fabric8's model classes and custom resource classes, whose fields are
 * Jackson bean properties. Values with their own JSON form ({@code Quantity}, {@code IntOrString})
 * are kept whole. A shared informer has the transform it was created with (see {@link
 * SharedInformerFactory}): every controller sharing it must read only kept fields.
 */
public final class Projections {

  /** The fields every projection keeps. */
  public static final List<String> ALWAYS_KEPT =
      List.of(
          "apiVersion",
          "kind",
          "metadata.name",
          "metadata.namespace",
          "metadata.uid",
          "metadata.resourceVersion",
          "metadata.generation",
          "metadata.deletionTimestamp");

  private Projections() {}

  /** {@link #keep(Class, Collection)} of these paths. */
  public static UnaryOperator<HasMetadata> keep(
      Class<? extends HasMetadata> type, String... paths) {
    return keep(type, List.of(paths));
  }

  /**
   * A transform keeping the fields {@code paths} name (and {@link #ALWAYS_KEPT}) of objects of
   * {@code type}; it refuses objects of another type with an {@link IllegalArgumentException}. With
   * it, lists and the watch's events (over {@link
   * io.podset.runtime.informer.transport.WatchTransport#HTTP_STREAM}) skip decoding the fields it
   * drops, managed fields included unless they are kept: the parser passes over them instead of
   * building objects the projection would throw away.
   *
   * @throws NullPointerException if {@code type}, {@code paths} or a path is null
   * @throws IllegalArgumentException if a path is malformed or names a field {@code type} does not
   *     have (the message names the path and the fields there are), or if {@code type} is not a
   *     model class
   */
  public static UnaryOperator<HasMetadata> keep(
      Class<? extends HasMetadata> type, Collection<String> paths) {
    return new FieldProjection(type, paths);
  }
}
