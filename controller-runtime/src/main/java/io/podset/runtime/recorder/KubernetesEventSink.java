package io.podset.runtime.recorder;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.runtime.client.ObjectWriter;
import java.net.HttpURLConnection;

/**
 * Writes core/v1 Events through the client: create (through an {@link ObjectWriter}, which decodes
 * only the name from the answer), then merge-patch the count.
 */
final class KubernetesEventSink implements EventSink {

  private final KubernetesClient client;
  private final ObjectWriter writer;

  KubernetesEventSink(KubernetesClient client) {
    this.client = client;
    this.writer = ObjectWriter.of(client);
  }

  @Override
  public String create(Event event) {
    return writer.create(event).name();
  }

  @Override
  public boolean updateCount(String namespace, String name, int count, String lastTimestamp) {
    String patch = "{\"count\":" + count + ",\"lastTimestamp\":\"" + lastTimestamp + "\"}";
    try {
      client
          .v1()
          .events()
          .inNamespace(namespace)
          // An object naming the Event, not withName(name): fabric8 GETs the object before a
          // string patch unless it is given one.
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withNamespace(namespace)
                  .withName(name)
                  .endMetadata()
                  .build())
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
