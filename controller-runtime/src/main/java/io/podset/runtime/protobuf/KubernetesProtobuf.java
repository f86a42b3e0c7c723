package io.podset.runtime.protobuf;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The message types of the Kubernetes API's protobuf encoding, from the descriptor set the build
 * compiles out of the vendored {@code generated.proto} files (Kubernetes 1.34), with what the
 * descriptors do not say: which fields are Go pointers and which are embedded structs. Loaded on
 * first use: only what speaks protobuf (informers of built-in kinds, the testkit's server reading
 * kubectl's bodies) pays for it. Thread-safe.
 */
public final class KubernetesProtobuf {

  private static final String RESOURCE = "kubernetes-api.protoset";
  private static final String POINTERS = "kubernetes-pointer-fields.txt";
  private static final String INLINE = "kubernetes-inline-fields.txt";
  private static final String OMITEMPTY = "kubernetes-omitempty-fields.txt";
  private static final String UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown";
  private static final int MAX_CACHED = 1024;

  // Immutable after construction: "version/Kind" -> the messages of that name in that version.
  private final Map<String, List<Descriptor>> byVersionAndKind = new HashMap<>();
  private final Descriptor unknown;
  // "apiVersion kind" -> its message (at most MAX_CACHED): looked up on every write of a
  // built-in kind.
  private final ConcurrentHashMap<String, Optional<Descriptor>> messages =
      new ConcurrentHashMap<>();
  // Immutable after construction: full names of the fields that are pointers in the Go types.
  private final Set<String> pointers;
  // Immutable after construction: full names of the fields embedded in their Go struct.
  private final Set<String> inline;
  // Immutable after construction: full names of the fields whose zero value JSON leaves out.
  private final Set<String> omitempty;

  private KubernetesProtobuf(
      List<FileDescriptor> files, Set<String> pointers, Set<String> inline, Set<String> omitempty) {
    this.pointers = pointers;
    this.inline = inline;
    this.omitempty = omitempty;
    @Nullable Descriptor envelope = null;
    for (FileDescriptor file : files) {
      String version = lastSegment(file.getPackage());
      for (Descriptor message : file.getMessageTypes()) {
        byVersionAndKind
            .computeIfAbsent(version + "/" + message.getName(), k -> new ArrayList<>())
            .add(message);
        if (message.getFullName().equals(UNKNOWN)) {
          envelope = message;
        }
      }
    }
    if (envelope == null) {
      throw new IllegalStateException(RESOURCE + " lacks " + UNKNOWN);
    }
    this.unknown = envelope;
  }

  private static final class Holder {
    static final KubernetesProtobuf INSTANCE = load();
  }

  /** The schemas, loaded once. */
  public static KubernetesProtobuf get() {
    return Holder.INSTANCE;
  }

  /**
   * Whether {@code field} is a pointer in the Go type ({@code *string} and friends), so a value
   * sent on the wire is set even when empty; other string fields cannot tell empty from unset.
   */
  public boolean pointer(FieldDescriptor field) {
    return pointers.contains(field.getFullName());
  }

  /**
   * Whether {@code field} is an embedded Go struct ({@code json:",inline"}, a Volume's {@code
   * volumeSource}): its fields sit in the enclosing JSON object.
   */
  public boolean inline(FieldDescriptor field) {
    return inline.contains(field.getFullName());
  }

  /**
   * Whether the API server's JSON leaves {@code field} out when it holds its zero value ({@code
   * ""}, 0, false): a field that is no Go pointer and is tagged {@code omitempty}. The protobuf
   * encoding writes such a field whatever its value; a pointer's zero value is written in both, as
   * set.
   */
  public boolean omitsZero(FieldDescriptor field) {
    return omitempty.contains(field.getFullName());
  }

  /** The envelope every Kubernetes protobuf body is wrapped in ({@code runtime.Unknown}). */
  public Descriptor envelope() {
    return unknown;
  }

  /**
   * The message for an object of {@code kind} in {@code apiVersion}, or null when the API has no
   * such built-in type. Messages are found by version and kind; the group (its first label, {@code
   * core} for the legacy group) picks among same-named kinds such as core and events.k8s.io Event.
   */
  public @Nullable Descriptor message(String apiVersion, String kind) {
    String key = apiVersion + " " + kind;
    Optional<Descriptor> known = messages.get(key);
    if (known == null) {
      known = find(apiVersion, kind);
      // Bounded: the pairs come from request bodies too.
      if (messages.size() < MAX_CACHED) {
        messages.put(key, known);
      }
    }
    return known.orElse(null);
  }

  private Optional<Descriptor> find(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    List<Descriptor> candidates = byVersionAndKind.get(version + "/" + kind);
    if (candidates == null) {
      return Optional.empty();
    }
    String label = group.isEmpty() ? "core" : group.split("\\.", 2)[0];
    for (Descriptor candidate : candidates) {
      if (packageGroup(candidate.getFile().getPackage()).equals(label)) {
        return Optional.of(candidate);
      }
    }
    return candidates.size() == 1 ? Optional.of(candidates.get(0)) : Optional.empty();
  }

  // k8s.io.api.apps.v1 -> apps; k8s.io.apimachinery.pkg.apis.meta.v1 -> meta.
  private static String packageGroup(String protoPackage) {
    String[] parts = protoPackage.split("\\.");
    return parts.length >= 2 ? parts[parts.length - 2] : "";
  }

  private static String lastSegment(String protoPackage) {
    return protoPackage.substring(protoPackage.lastIndexOf('.') + 1);
  }

  private static KubernetesProtobuf load() {
    FileDescriptorSet set;
    try (InputStream in = KubernetesProtobuf.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      set = FileDescriptorSet.parseFrom(in);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE, e);
    }
    // protoc writes imports before the files that import them (--include_imports).
    Map<String, FileDescriptor> built = new HashMap<>();
    List<FileDescriptor> files = new ArrayList<>();
    for (FileDescriptorProto proto : set.getFileList()) {
      FileDescriptor[] dependencies =
          proto.getDependencyList().stream().map(built::get).toArray(FileDescriptor[]::new);
      try {
        FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies);
        built.put(proto.getName(), file);
        files.add(file);
      } catch (DescriptorValidationException e) {
        throw new IllegalStateException("invalid descriptor " + proto.getName(), e);
      }
    }
    return new KubernetesProtobuf(
        files, loadNames(POINTERS), loadNames(INLINE), loadNames(OMITEMPTY));
  }

  // Written by proto/vendor-k8s-protos.sh from the Go types of k8s.io/api, next to the protos.
  private static Set<String> loadNames(String resource) {
    try (InputStream in = KubernetesProtobuf.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the class path");
      }
      return Set.copyOf(
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .lines()
              .filter(line -> !line.isBlank())
              .toList());
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource, e);
    }
  }
}
