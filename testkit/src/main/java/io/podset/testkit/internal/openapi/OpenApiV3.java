package io.podset.testkit.internal.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.admission.SchemaRules;
import io.podset.testkit.internal.resource.ContentHashes;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The OpenAPI v3 documents of what the registry serves now: the index ({@code /openapi/v3}) and one
 * document per group/version. A document is built when first asked for and again only when the
 * types of its group/version change (a CRD created, changed or deleted), so its hash, like the real
 * server's (the SHA-512 of the document), changes exactly when the document does. Thread-safe.
 */
public final class OpenApiV3 {

  /**
   * One served document.
   *
   * @param json the document's bytes (never modified)
   * @param hash the upper-case hex SHA-512 of {@code json}, as in the index's {@code ?hash=}
   * @param lastModified when this version of the document was built
   */
  public record Document(byte[] json, String hash, Instant lastModified) {}

  private record Cached(List<ResourceType> types, Document document) {}

  private final ResourceRegistry registry;
  private final String infoVersion;
  private final Supplier<Instant> now;
  private final Object lock = new Object();
  // Guarded by lock: group/version -> the document built for the types it had then.
  private final Map<String, Cached> documents = new HashMap<>();

  /**
   * @param registry what is served
   * @param gitVersion the server's version ({@code v1.34.4}); documents say {@code 1.34}
   * @param now the clock of {@code Last-Modified}
   */
  public OpenApiV3(ResourceRegistry registry, String gitVersion, Supplier<Instant> now) {
    this.registry = Objects.requireNonNull(registry, "registry");
    String[] parts = gitVersion.replaceFirst("^v", "").split("[.-]");
    this.infoVersion = parts[0] + "." + (parts.length > 1 ? parts[1] : "0");
    this.now = Objects.requireNonNull(now, "now");
  }

  /** The index: each group/version's path with the hash of its current document. */
  public ObjectNode index() {
    ObjectNode root = Json.object();
    ObjectNode paths = root.putObject("paths");
    addToIndex(paths, "v1");
    for (Map.Entry<String, List<String>> group : registry.groups().entrySet()) {
      for (String version : group.getValue()) {
        addToIndex(paths, group.getKey() + "/" + version);
      }
    }
    return root;
  }

  private void addToIndex(ObjectNode paths, String groupVersion) {
    Document doc = document(groupVersion);
    if (doc != null) {
      String path = path(groupVersion);
      paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path + "?hash=" + doc.hash());
    }
  }

  /** {@code api/v1} for the core group, {@code apis/<group>/<version>} otherwise. */
  public static String path(String groupVersion) {
    return groupVersion.contains("/") ? "apis/" + groupVersion : "api/" + groupVersion;
  }

  /** The current document of a group/version, or null when nothing is served there. */
  public Document document(String groupVersion) {
    List<ResourceType> types = registry.typesOf(groupVersion);
    if (types.isEmpty()) {
      return null;
    }
    synchronized (lock) {
      Cached cached = documents.get(groupVersion);
      if (cached == null || !cached.types().equals(types)) {
        ObjectNode doc = build(groupVersion, types);
        cached = new Cached(types, doc == null ? null : document(Json.bytes(doc)));
        documents.put(groupVersion, cached);
      }
      return cached.document();
    }
  }

  private ObjectNode build(String groupVersion, List<ResourceType> types) {
    List<ResourceType> builtin = types.stream().filter(t -> !t.custom()).toList();
    ObjectNode doc = builtin.isEmpty() ? null : BuiltinDocuments.document(groupVersion, builtin);
    for (ResourceType type : types) {
      if (type.custom()) {
        JsonNode schema =
            type.rules() instanceof SchemaRules rules ? rules.schema() : Json.object();
        doc =
            merge(
                doc,
                CustomResourceDocuments.document(type, schema == null ? Json.object() : schema));
      }
    }
    if (doc != null && !types.stream().allMatch(ResourceType::custom)) {
      ((ObjectNode) doc.path("info")).put("version", infoVersion);
    }
    return doc;
  }

  /** Adds the paths and schemas of {@code more} to {@code doc} (as the real server merges CRDs). */
  private static ObjectNode merge(ObjectNode doc, ObjectNode more) {
    if (doc == null) {
      return more;
    }
    ObjectNode paths = (ObjectNode) doc.path("paths");
    more.path("paths").fields().forEachRemaining(e -> paths.set(e.getKey(), e.getValue()));
    ObjectNode schemas = (ObjectNode) doc.path("components").path("schemas");
    Iterator<Map.Entry<String, JsonNode>> it = more.path("components").path("schemas").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      schemas.set(e.getKey(), e.getValue());
    }
    return doc;
  }

  private Document document(byte[] json) {
    return new Document(json, ContentHashes.sha512(json), now.get());
  }
}
