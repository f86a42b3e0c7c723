package io.podset.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
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
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = CANONICAL.convertValue(template, Map.class);
    String full = hash(tree);
    return new PodTemplateHash(full, hash(withoutImages(tree)));
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
