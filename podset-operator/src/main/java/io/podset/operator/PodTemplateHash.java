package io.podset.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The identity of a pod template, as two short hashes: of the whole template ({@link #full()}) and
 * of the template with its containers' images left out ({@link #withoutImages()}).
 *
 * <p>The hash is over a canonical JSON form (object keys sorted at every level), so it depends only
 * on the template's content, not on field order or the JVM. It is 10 hex characters of SHA-256,
 * short enough for a label value.
 *
 * @param full the hash of the whole template
 * @param withoutImages the hash of the template with {@code spec.containers[*].image} removed
 */
public record PodTemplateHash(String full, String withoutImages) {

  private static final ObjectMapper CANONICAL =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  /** How many templates {@link #of} remembers. */
  static final int MEMO_SIZE = 64;

  private static final Object MEMO_LOCK = new Object();

  /**
   * Guarded by {@link #MEMO_LOCK}: the hashes of the templates hashed last, least recently used
   * first, at most {@link #MEMO_SIZE}. Keys are copies nobody else holds, so a caller mutating its
   * template afterwards cannot make an entry lie. Every reconcile hashes its PodSet's template, and
   * hashing (a canonical JSON form and two SHA-256) cost a quarter of a reconcile's CPU.
   */
  private static final Map<PodTemplateSpec, PodTemplateHash> MEMO =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PodTemplateSpec, PodTemplateHash> eldest) {
          return size() > MEMO_SIZE;
        }
      };

  /**
   * @throws NullPointerException if a hash is null
   */
  public PodTemplateHash {
    Objects.requireNonNull(full, "full");
    Objects.requireNonNull(withoutImages, "withoutImages");
  }

  /**
   * Hashes {@code template}.
   *
   * @throws NullPointerException if {@code template} is null
   */
  public static PodTemplateHash of(PodTemplateSpec template) {
    Objects.requireNonNull(template, "template");
    synchronized (MEMO_LOCK) {
      PodTemplateHash known = MEMO.get(template);
      if (known != null) {
        return known;
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = CANONICAL.convertValue(template, Map.class);
    String full = hash(tree);
    PodTemplateHash hash = new PodTemplateHash(full, hash(withoutImages(tree)));
    PodTemplateSpec copy = new PodTemplateSpecBuilder(template).build();
    synchronized (MEMO_LOCK) {
      MEMO.put(copy, hash);
    }
    return hash;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> withoutImages(Map<String, Object> tree) {
    Map<String, Object> copy = new HashMap<>(tree);
    if (!(copy.get("spec") instanceof Map<?, ?> spec)) {
      return copy;
    }
    Map<String, Object> specCopy = new HashMap<>((Map<String, Object>) spec);
    if (specCopy.get("containers") instanceof List<?> containers) {
      List<Object> stripped = new ArrayList<>(containers.size());
      for (Object container : containers) {
        if (container instanceof Map<?, ?> map) {
          Map<String, Object> c = new HashMap<>((Map<String, Object>) map);
          c.remove("image");
          stripped.add(c);
        } else {
          stripped.add(container);
        }
      }
      specCopy.put("containers", stripped);
    }
    copy.put("spec", specCopy);
    return copy;
  }

  private static String hash(Map<String, Object> tree) {
    try {
      byte[] json = CANONICAL.writeValueAsString(tree).getBytes(StandardCharsets.UTF_8);
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(json);
      return HexFormat.of().formatHex(digest, 0, 5);
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot hash a pod template", e);
    }
  }
}
