package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** A map of objects plus inverted indices, all guarded by one read-write lock. */
final class DefaultIndexer<T extends HasMetadata> implements MutableIndexer<T> {

  private final ReadWriteLock lock = new ReentrantReadWriteLock();

  // All guarded by lock. Invariant: for every index name n, object key k and value v,
  // indices[n][v] contains k iff items[k] exists and functions[n](items[k]) contains v;
  // empty value sets are removed.
  private final Map<String, T> items = new HashMap<>();
  private final Map<String, IndexFunction<T>> functions = new HashMap<>();
  private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

  private final Indexer<T> view = new ReadOnlyView();

  @Override
  public Optional<T> upsert(T obj) {
    Objects.requireNonNull(obj, "obj");
    String key = ObjectKey.of(obj).toString();
    lock.writeLock().lock();
    try {
      T old = items.put(key, obj);
      if (old != null) {
        unindex(key, old);
      }
      index(key, obj);
      return Optional.ofNullable(old);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Optional<T> delete(ObjectKey key) {
    Objects.requireNonNull(key, "key");
    String k = key.toString();
    lock.writeLock().lock();
    try {
      T old = items.remove(k);
      if (old != null) {
        unindex(k, old);
      }
      return Optional.ofNullable(old);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void replace(Collection<? extends T> objects) {
    Objects.requireNonNull(objects, "objects");
    lock.writeLock().lock();
    try {
      items.clear();
      for (Map<String, Set<String>> index : indices.values()) {
        index.clear();
      }
      for (T obj : objects) {
        String key = ObjectKey.of(obj).toString();
        T old = items.put(key, obj);
        if (old != null) {
          unindex(key, old);
        }
        index(key, obj);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void addIndexers(Map<String, ? extends IndexFunction<T>> indexers) {
    Objects.requireNonNull(indexers, "indexers");
    lock.writeLock().lock();
    try {
      for (String name : indexers.keySet()) {
        if (functions.containsKey(name)) {
          throw new IllegalArgumentException("index name already in use: " + name);
        }
      }
      for (Map.Entry<String, ? extends IndexFunction<T>> entry : indexers.entrySet()) {
        String name = Objects.requireNonNull(entry.getKey(), "index name");
        IndexFunction<T> function = Objects.requireNonNull(entry.getValue(), "index " + name);
        functions.put(name, function);
        Map<String, Set<String>> index = new HashMap<>();
        indices.put(name, index);
        for (Map.Entry<String, T> item : items.entrySet()) {
          for (String value : function.apply(item.getValue())) {
            index.computeIfAbsent(value, v -> new LinkedHashSet<>()).add(item.getKey());
          }
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Indexer<T> readOnlyView() {
    return view;
  }

  @Override
  public Optional<T> get(ObjectKey key) {
    Objects.requireNonNull(key, "key");
    return getKey(key.toString());
  }

  @Override
  public Optional<T> getByKey(String key) {
    return get(ObjectKey.parse(key));
  }

  private Optional<T> getKey(String key) {
    lock.readLock().lock();
    try {
      return Optional.ofNullable(items.get(key));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<T> list() {
    lock.readLock().lock();
    try {
      return List.copyOf(items.values());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> listKeys() {
    lock.readLock().lock();
    try {
      return List.copyOf(items.keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public int size() {
    lock.readLock().lock();
    try {
      return items.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<T> byIndex(String indexName, String indexedValue) {
    lock.readLock().lock();
    try {
      Set<String> keys = indexKeysLocked(indexName, indexedValue);
      List<T> result = new ArrayList<>(keys.size());
      for (String key : keys) {
        result.add(items.get(key));
      }
      return List.copyOf(result);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> indexKeys(String indexName, String indexedValue) {
    lock.readLock().lock();
    try {
      return List.copyOf(indexKeysLocked(indexName, indexedValue));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> indexNames() {
    lock.readLock().lock();
    try {
      return List.copyOf(functions.keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  private Set<String> indexKeysLocked(String indexName, String indexedValue) {
    Objects.requireNonNull(indexName, "indexName");
    Objects.requireNonNull(indexedValue, "indexedValue");
    Map<String, Set<String>> index = indices.get(indexName);
    if (index == null) {
      throw new IllegalArgumentException("no index named '" + indexName + "'");
    }
    return index.getOrDefault(indexedValue, Set.of());
  }

  // Every function has its index (added together under the write lock).
  private Map<String, Set<String>> indexOf(String indexName) {
    Map<String, Set<String>> index = indices.get(indexName);
    if (index == null) {
      throw new IllegalStateException("index '" + indexName + "' has a function but no index");
    }
    return index;
  }

  private void index(String key, T obj) {
    for (Map.Entry<String, IndexFunction<T>> entry : functions.entrySet()) {
      Map<String, Set<String>> index = indexOf(entry.getKey());
      for (String value : entry.getValue().apply(obj)) {
        index.computeIfAbsent(value, v -> new LinkedHashSet<>()).add(key);
      }
    }
  }

  private void unindex(String key, T obj) {
    for (Map.Entry<String, IndexFunction<T>> entry : functions.entrySet()) {
      Map<String, Set<String>> index = indexOf(entry.getKey());
      for (String value : entry.getValue().apply(obj)) {
        Set<String> keys = index.get(value);
        if (keys != null) {
          keys.remove(key);
          if (keys.isEmpty()) {
            index.remove(value);
          }
        }
      }
    }
  }

  /** Delegates reads only, so a reader cannot cast its way to the writer methods. */
  private final class ReadOnlyView implements Indexer<T> {
    @Override
    public Optional<T> get(ObjectKey key) {
      return DefaultIndexer.this.get(key);
    }

    @Override
    public Optional<T> getByKey(String key) {
      return DefaultIndexer.this.getByKey(key);
    }

    @Override
    public List<T> list() {
      return DefaultIndexer.this.list();
    }

    @Override
    public List<String> listKeys() {
      return DefaultIndexer.this.listKeys();
    }

    @Override
    public int size() {
      return DefaultIndexer.this.size();
    }

    @Override
    public List<T> byIndex(String indexName, String indexedValue) {
      return DefaultIndexer.this.byIndex(indexName, indexedValue);
    }

    @Override
    public List<String> indexKeys(String indexName, String indexedValue) {
      return DefaultIndexer.this.indexKeys(indexName, indexedValue);
    }

    @Override
    public List<String> indexNames() {
      return DefaultIndexer.this.indexNames();
    }
  }
}
