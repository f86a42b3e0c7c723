package io.podset.examples.website;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A static website: {@code example.com/v1alpha1}, kind {@code Website}, served by nginx. */
@Group("example.com")
@Version("v1alpha1")
@ShortNames("site")
public class Website extends CustomResource<WebsiteSpec, WebsiteStatus> implements Namespaced {}
