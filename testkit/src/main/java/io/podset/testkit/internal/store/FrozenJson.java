package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compact, read-only copies of the JSON trees the object store keeps. A stored pod parsed by
 * Jackson costs about 45 KB for 5.8 KB of JSON: every object node has a {@code LinkedHashMap} (56
 * B, a 16-slot table, 40 B per entry and an entry-set view once iterated), and most of a pod's 160
 * object nodes are the empty or one-field objects of its {@code managedFields}. A frozen copy keeps
 * each object's fields in one array (keys and values alternating, 8 B per field), shares one empty
 * object, and keeps one copy of each field name and of each short text value repeated across
 * objects ({@link #name}, {@link #text}). It reads, iterates, compares, serializes and deep-copies
 * as before (a deep copy is an ordinary mutable tree); writing to it throws {@link
 * UnsupportedOperationException}, which is the store's rule anyway: stored objects are never
 * mutated.
 *
 * <p>Objects of more than {@value #MAX_ARRAY_FIELDS} fields keep a hashed map, so that looking up
 * every field of a large object (a ConfigMap's data) stays linear.
 */
final class FrozenJson {

  static final int MAX_ARRAY_FIELDS = 16;

  static final int MAX_NAMES = 1 << 16;
  static final int MAX_TEXTS = 1 << 16;
  static final int MAX_TEXT_LENGTH = 64;
  static final int MAX_PARTS = 1 << 16;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ConcurrentHashMap<String, String> NAMES = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, TextNode> TEXTS = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<JsonNode, JsonNode> PARTS = new ConcurrentHashMap<>();
  private static final ObjectNode EMPTY = new Frozen(new ArrayFields(new Object[0]));

  private FrozenJson() {}

  /** A frozen copy of {@code node} (itself when it is frozen already). */
  static ObjectNode freeze(ObjectNode node) {
    // The object itself is not shared (it is one of a kind: its name and resourceVersion); its
    // parts are.
    return node instanceof Frozen ? node : freezeObject(node);
  }

  /** Whether {@code node} is a frozen object (its fields cannot change). */
  static boolean isFrozen(ObjectNode node) {
    return node instanceof Frozen;
  }

  private static JsonNode freezeNode(JsonNode node) {
    if (node instanceof ObjectNode object) {
      return object instanceof Frozen ? object : shared(freezeObject(object));
    }
    if (node instanceof ArrayNode array) {
      if (array instanceof FrozenArray) {
        return array;
      }
      List<JsonNode> elements = new ArrayList<>(array.size());
      array.forEach(element -> elements.add(freezeNode(element)));
      return shared(new FrozenArray(List.copyOf(elements)));
    }
    if (node instanceof TextNode text) {
      return text(text);
    }
    // Numbers, booleans and null are immutable already.
    return node;
  }

  private static ObjectNode freezeObject(ObjectNode object) {
    int size = object.size();
    if (size == 0) {
      return EMPTY;
    }
    if (size > MAX_ARRAY_FIELDS) {
      Map<String, JsonNode> fields = new LinkedHashMap<>((int) (size / 0.75f) + 1);
      object.properties().forEach(e -> fields.put(name(e.getKey()), freezeNode(e.getValue())));
      return new Frozen(Collections.unmodifiableMap(fields));
    }
    Object[] keysAndValues = new Object[2 * size];
    int i = 0;
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      keysAndValues[i++] = name(e.getKey());
      keysAndValues[i++] = freezeNode(e.getValue());
    }
    return new Frozen(new ArrayFields(keysAndValues));
  }

  /**
   * The one frozen copy of a part of a stored object (an object or a list inside it). Parts repeat
   * across objects and their versions: the labels, owner references, containers' resources,
   * tolerations and conditions of pods of one template, and most of every managedFields entry (it
   * names fields, not values); a stored pod shares most of its nodes. Built bottom-up, so a part's
   * own parts are shared already and comparing two is shallow. The first {@value #MAX_PARTS}
   * distinct parts seen in the JVM are kept (those repeated in every object are among them), any
   * other stays as it is. Equal frozen trees are interchangeable: nothing tells stored parts apart
   * by identity.
   */
  private static JsonNode shared(JsonNode frozen) {
    return frozen == EMPTY ? frozen : canonical(PARTS, MAX_PARTS, frozen, frozen);
  }

  /**
   * The one node of a short text value. Values repeat across objects (images, label values,
   * condition types and statuses, the managers' names); the first {@value #MAX_TEXTS} distinct
   * short texts seen in the JVM are kept, so the values repeated in every object are among them,
   * and at most a few MB are held; any other text stays as it is.
   */
  static JsonNode text(TextNode node) {
    String value = node.textValue();
    return value.length() > MAX_TEXT_LENGTH ? node : canonical(TEXTS, MAX_TEXTS, value, node);
  }

  /**
   * The one copy of a field name. Names repeat across objects (the schema's, the managed fields'
   * keys) but are few: at most {@value #MAX_NAMES} are kept, for every server of the JVM; beyond
   * that a name is kept as it is.
   */
  static String name(String name) {
    return canonical(NAMES, MAX_NAMES, name, name);
  }

  /** The value kept for {@code key}, keeping {@code value} if none is and there is room. */
  private static <K, V> V canonical(ConcurrentHashMap<K, V> kept, int max, K key, V value) {
    V known = kept.get(key);
    if (known != null || kept.size() >= max) {
      return known != null ? known : value;
    }
    known = kept.putIfAbsent(key, value);
    return known == null ? value : known;
  }

  /**
   * A frozen object node: an ordinary {@link ObjectNode} (equal to any object node with the same
   * fields) over read-only fields; its class marks it as frozen.
   */
  private static final class Frozen extends ObjectNode {
    private static final long serialVersionUID = 1L;

    // The fields' hash (ObjectNode's), computed on first use (0: not yet; a benign race: equal
    // values): sharing parts hashes every part, and a part's hash is made of its parts'.
    private transient int hash;

    Frozen(Map<String, JsonNode> fields) {
      super(NODES, fields);
    }

    @Override
    public int hashCode() {
      if (hash == 0) {
        hash = super.hashCode();
      }
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o);
    }
  }

  /** A frozen list: an ordinary {@link ArrayNode} over an immutable list, its hash kept. */
  private static final class FrozenArray extends ArrayNode {
    private static final long serialVersionUID = 1L;

    // As Frozen's.
    private transient int hash;

    FrozenArray(List<JsonNode> elements) {
      super(NODES, elements);
    }

    @Override
    public int hashCode() {
      int h = hash == 0 ? super.hashCode() : hash;
      hash = h;
      return h;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o);
    }
  }

  /**
   * An object's fields in one array, keys at even indices and values at odd ones, in insertion
   * order; read-only. {@code get} scans the keys, which is fast for the at most {@value
   * #MAX_ARRAY_FIELDS} fields it holds.
   */
  private static final class ArrayFields extends AbstractMap<String, JsonNode> {
    private final Object[] keysAndValues;

    ArrayFields(Object[] keysAndValues) {
      this.keysAndValues = keysAndValues;
    }

    @Override
    public JsonNode get(Object key) {
      for (int i = 0; i < keysAndValues.length; i += 2) {
        if (keysAndValues[i].equals(key)) {
          return (JsonNode) keysAndValues[i + 1];
        }
      }
      return null;
    }

    @Override
    public boolean containsKey(Object key) {
      return get(key) != null;
    }

    @Override
    public int size() {
      return keysAndValues.length / 2;
    }

    /** As {@link AbstractMap#hashCode}, without an entry per field. */
    @Override
    public int hashCode() {
      int h = 0;
      for (int i = 0; i < keysAndValues.length; i += 2) {
        h += keysAndValues[i].hashCode() ^ keysAndValues[i + 1].hashCode();
      }
      return h;
    }

    @Override
    public boolean equals(Object o) {
      return super.equals(o);
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, JsonNode>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < keysAndValues.length;
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
              if (next >= keysAndValues.length) {
                throw new NoSuchElementException();
              }
              Map.Entry<String, JsonNode> entry =
                  new SimpleImmutableEntry<>(
                      (String) keysAndValues[next], (JsonNode) keysAndValues[next + 1]);
              next += 2;
              return entry;
            }
          };
        }

        @Override
        public int size() {
          return keysAndValues.length / 2;
        }
      };
    }
  }
}
