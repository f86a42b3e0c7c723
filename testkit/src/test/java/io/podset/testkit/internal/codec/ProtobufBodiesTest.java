package io.podset.testkit.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import io.podset.runtime.protobuf.GoDurations;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import io.podset.testkit.internal.resource.StatusError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtobufBodiesTest {

  private static final KubernetesProtobuf SCHEMAS = KubernetesProtobuf.get();

  /** A message of {@code type} with fields set by name; nested maps become nested messages. */
  private static DynamicMessage message(Descriptor type, Map<String, ?> fields) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    fields.forEach(
        (name, value) -> {
          var field = type.findFieldByName(name);
          assertThat(field).as("field %s of %s", name, type.getName()).isNotNull();
          if (value instanceof Map<?, ?> nested) {
            @SuppressWarnings("unchecked")
            Map<String, ?> typed = (Map<String, ?>) nested;
            builder.setField(field, message(field.getMessageType(), typed));
          } else if (value instanceof java.util.List<?> list) {
            for (Object item : list) {
              builder.addRepeatedField(field, item);
            }
          } else {
            builder.setField(field, value);
          }
        });
    return builder.build();
  }

  private static DynamicMessage mapEntry(Descriptor owner, String field, Object key, Object value) {
    Descriptor entry = owner.findFieldByName(field).getMessageType();
    return DynamicMessage.newBuilder(entry)
        .setField(entry.findFieldByName("key"), key)
        .setField(entry.findFieldByName("value"), value)
        .build();
  }

  private static byte[] envelope(String apiVersion, String kind, Message object) {
    Descriptor unknown = SCHEMAS.envelope();
    DynamicMessage wrapped =
        message(
            unknown,
            Map.of(
                "typeMeta", Map.of("apiVersion", apiVersion, "kind", kind),
                "raw", object.toByteString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0});
    out.writeBytes(wrapped.toByteArray());
    return out.toByteArray();
  }

  private static Descriptor type(String apiVersion, String kind) {
    Descriptor type = SCHEMAS.message(apiVersion, kind);
    assertThat(type).as("%s %s", apiVersion, kind).isNotNull();
    return type;
  }

  @Test
  void decode_emptyStringInAPointerField_isKept_inAPlainField_isLeftOut() {
    Descriptor lease = type("coordination.k8s.io/v1", "Lease");
    Descriptor spec = lease.findFieldByName("spec").getMessageType();
    Descriptor meta = lease.findFieldByName("metadata").getMessageType();
    DynamicMessage object =
        DynamicMessage.newBuilder(lease)
            .setField(
                lease.findFieldByName("metadata"),
                DynamicMessage.newBuilder(meta)
                    .setField(meta.findFieldByName("name"), "leader")
                    .setField(meta.findFieldByName("generateName"), "")
                    .build())
            .setField(
                lease.findFieldByName("spec"),
                DynamicMessage.newBuilder(spec)
                    .setField(spec.findFieldByName("holderIdentity"), "")
                    .setField(spec.findFieldByName("leaseDurationSeconds"), 15)
                    .build())
            .build();

    ObjectNode decoded = ProtobufBodies.decode(envelope("coordination.k8s.io/v1", "Lease", object));

    // client-go's leader election releases a lease by writing holderIdentity: "".
    assertThat(decoded.path("spec").has("holderIdentity")).isTrue();
    assertThat(decoded.path("spec").path("holderIdentity").asText()).isEmpty();
    assertThat(decoded.path("metadata").has("generateName")).isFalse();
  }

  @Test
  void decode_embeddedStructs_areFlatInJson() {
    Descriptor pod = type("v1", "Pod");
    Descriptor spec = pod.findFieldByName("spec").getMessageType();
    Descriptor volume = spec.findFieldByName("volumes").getMessageType();
    Descriptor source = volume.findFieldByName("volumeSource").getMessageType();
    DynamicMessage secretVolume =
        DynamicMessage.newBuilder(volume)
            .setField(volume.findFieldByName("name"), "creds")
            .setField(
                volume.findFieldByName("volumeSource"),
                message(source, Map.of("secret", Map.of("secretName", "app-creds"))))
            .build();
    DynamicMessage object =
        DynamicMessage.newBuilder(pod)
            .setField(
                pod.findFieldByName("spec"),
                DynamicMessage.newBuilder(spec)
                    .addRepeatedField(spec.findFieldByName("volumes"), secretVolume)
                    .build())
            .build();

    ObjectNode decoded = ProtobufBodies.decode(envelope("v1", "Pod", object));

    assertThat(decoded.path("spec").path("volumes").get(0).toString())
        .isEqualTo("{\"name\":\"creds\",\"secret\":{\"secretName\":\"app-creds\"}}");
  }

  @Test
  void decode_configMap_metadataDataAndBinaryData() {
    Descriptor configMap = type("v1", "ConfigMap");
    Descriptor meta = configMap.findFieldByName("metadata").getMessageType();
    DynamicMessage object =
        DynamicMessage.newBuilder(configMap)
            .setField(
                configMap.findFieldByName("metadata"),
                DynamicMessage.newBuilder(meta)
                    .setField(meta.findFieldByName("name"), "settings")
                    .setField(meta.findFieldByName("namespace"), "")
                    .addRepeatedField(
                        meta.findFieldByName("labels"), mapEntry(meta, "labels", "app", "web"))
                    .setField(
                        meta.findFieldByName("creationTimestamp"),
                        message(
                            meta.findFieldByName("creationTimestamp").getMessageType(),
                            Map.of("seconds", 0L, "nanos", 0)))
                    .build())
            .addRepeatedField(
                configMap.findFieldByName("data"), mapEntry(configMap, "data", "empty", ""))
            .addRepeatedField(
                configMap.findFieldByName("binaryData"),
                mapEntry(
                    configMap,
                    "binaryData",
                    "blob",
                    ByteString.copyFrom("hi", StandardCharsets.UTF_8)))
            .build();

    ObjectNode json = ProtobufBodies.decode(envelope("v1", "ConfigMap", object));

    assertThat(json.toString())
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"settings\",\"labels\":{\"app\":\"web\"}},"
                + "\"data\":{\"empty\":\"\"},\"binaryData\":{\"blob\":\"aGk=\"}}");
  }

  @Test
  void decode_specialTypes_asTheirJsonForms() {
    Descriptor deployment = type("apps/v1", "Deployment");
    Descriptor spec = deployment.findFieldByName("spec").getMessageType();
    Descriptor strategy = spec.findFieldByName("strategy").getMessageType();
    Descriptor rolling = strategy.findFieldByName("rollingUpdate").getMessageType();
    Descriptor intOrString = rolling.findFieldByName("maxSurge").getMessageType();
    DynamicMessage object =
        DynamicMessage.newBuilder(deployment)
            .setField(
                deployment.findFieldByName("spec"),
                DynamicMessage.newBuilder(spec)
                    .setField(spec.findFieldByName("replicas"), 0)
                    .setField(
                        spec.findFieldByName("strategy"),
                        DynamicMessage.newBuilder(strategy)
                            .setField(
                                strategy.findFieldByName("rollingUpdate"),
                                DynamicMessage.newBuilder(rolling)
                                    .setField(
                                        rolling.findFieldByName("maxSurge"),
                                        message(intOrString, Map.of("type", 1L, "strVal", "25%")))
                                    .setField(
                                        rolling.findFieldByName("maxUnavailable"),
                                        message(intOrString, Map.of("type", 0L, "intVal", 2)))
                                    .build())
                            .build())
                    .build())
            .build();

    ObjectNode json = ProtobufBodies.decode(envelope("apps/v1", "Deployment", object));

    assertThat(json.at("/spec/replicas").isInt()).as("explicit zero kept").isTrue();
    assertThat(json.at("/spec/replicas").asInt()).isZero();
    assertThat(json.at("/spec/strategy/rollingUpdate/maxSurge").asText()).isEqualTo("25%");
    assertThat(json.at("/spec/strategy/rollingUpdate/maxUnavailable").isInt()).isTrue();
    assertThat(json.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt()).isEqualTo(2);
  }

  @Test
  void decode_timesQuantitiesAndEvents_pickTheGroupsType() {
    Descriptor event = type("events.k8s.io/v1", "Event");
    assertThat(event.getFullName()).isEqualTo("k8s.io.api.events.v1.Event");
    assertThat(type("v1", "Event").getFullName()).isEqualTo("k8s.io.api.core.v1.Event");
    Descriptor micro = event.findFieldByName("eventTime").getMessageType();
    DynamicMessage object =
        message(
            event,
            Map.of(
                "eventTime",
                Map.of("seconds", 1_700_000_000L, "nanos", 123_456_000),
                "reason",
                "Scaled"));
    assertThat(micro.getName()).isEqualTo("MicroTime");

    ObjectNode json = ProtobufBodies.decode(envelope("events.k8s.io/v1", "Event", object));

    assertThat(json.path("eventTime").asText()).isEqualTo("2023-11-14T22:13:20.123456Z");
    assertThat(json.path("reason").asText()).isEqualTo("Scaled");

    Descriptor quota = type("v1", "ResourceQuota");
    Descriptor quotaSpec = quota.findFieldByName("spec").getMessageType();
    Descriptor quantity =
        quotaSpec
            .findFieldByName("hard")
            .getMessageType()
            .findFieldByName("value")
            .getMessageType();
    DynamicMessage hard =
        mapEntry(quotaSpec, "hard", "memory", message(quantity, Map.of("string", "1Gi")));
    DynamicMessage quotaObject =
        DynamicMessage.newBuilder(quota)
            .setField(
                quota.findFieldByName("spec"),
                DynamicMessage.newBuilder(quotaSpec)
                    .addRepeatedField(quotaSpec.findFieldByName("hard"), hard)
                    .build())
            .build();
    assertThat(
            ProtobufBodies.decode(envelope("v1", "ResourceQuota", quotaObject))
                .at("/spec/hard/memory")
                .asText())
        .isEqualTo("1Gi");
  }

  @Test
  void decode_crdSchema_usesTheJsonSchemaNamesAndShapes() {
    Descriptor crd = type("apiextensions.k8s.io/v1", "CustomResourceDefinition");
    Descriptor spec = crd.findFieldByName("spec").getMessageType();
    Descriptor version = spec.findFieldByName("versions").getMessageType();
    Descriptor props = type("apiextensions.k8s.io/v1", "JSONSchemaProps");
    DynamicMessage schema =
        message(
            props,
            Map.of(
                "type",
                "object",
                "ref",
                "#/definitions/x",
                "xKubernetesPreserveUnknownFields",
                true,
                "additionalProperties",
                Map.of("allows", false),
                "items",
                Map.of("schema", Map.of("type", "string"))));
    DynamicMessage object =
        message(
            crd,
            Map.of(
                "spec",
                Map.of(
                    "group",
                    "example.com",
                    "versions",
                    java.util.List.of(
                        message(
                            version,
                            Map.of(
                                "name",
                                "v1",
                                "schema",
                                Map.of("openAPIV3Schema", schema.toBuilder().build())))))));

    ObjectNode json =
        ProtobufBodies.decode(
            envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", object));

    assertThat(json.at("/spec/versions/0/schema/openAPIV3Schema").toString())
        .isEqualTo(
            "{\"$ref\":\"#/definitions/x\",\"type\":\"object\",\"items\":{\"type\":\"string\"},"
                + "\"additionalProperties\":false,"
                + "\"x-kubernetes-preserve-unknown-fields\":true}");
  }

  @Test
  void decode_fieldUnknownToTheSchema_isRefusedNamingIt() {
    Descriptor configMap = type("v1", "ConfigMap");
    DynamicMessage object =
        DynamicMessage.newBuilder(configMap)
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                    .build())
            .build();

    assertThatThrownBy(() -> ProtobufBodies.decode(envelope("v1", "ConfigMap", object)))
        .isInstanceOf(StatusError.class)
        .hasMessageContaining("ConfigMap: field number(s) [99] of ConfigMap");
  }

  @Test
  void decode_badPrefixOrUnknownKind_isABadRequestSayingWhy() {
    assertThatThrownBy(
            () -> ProtobufBodies.decode("{\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(StatusError.class)
        .hasMessageContaining("does not start with the Kubernetes prefix");
    Message empty = DynamicMessage.getDefaultInstance(type("v1", "ConfigMap"));
    assertThatThrownBy(
            () -> ProtobufBodies.decode(envelope("app.example.com/v1alpha1", "PodSet", empty)))
        .isInstanceOf(StatusError.class)
        .hasMessageContaining("apiVersion \"app.example.com/v1alpha1\", kind \"PodSet\"");
  }

  @Test
  void goDurations_formatLikeGo() {
    assertThat(GoDurations.format(0)).isEqualTo("0s");
    assertThat(GoDurations.format(999)).isEqualTo("999ns");
    assertThat(GoDurations.format(1_500)).isEqualTo("1.5\u00b5s");
    assertThat(GoDurations.format(150_000_000)).isEqualTo("150ms");
    assertThat(GoDurations.format(3_500_000_000L)).isEqualTo("3.5s");
    assertThat(GoDurations.format(90_000_000_000L)).isEqualTo("1m30s");
    assertThat(GoDurations.format(3_600_000_000_000L)).isEqualTo("1h0m0s");
    assertThat(GoDurations.format(-61_000_000_000L)).isEqualTo("-1m1s");
  }
}
