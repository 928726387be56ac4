package org.mrconf.cli;

import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import picocli.CommandLine;

/** Reports the suite version and the spec and wire versions it tests. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws Exception {
        final String suite = MetaroceCommand.class.getPackage().getImplementationVersion();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        return new String[] {
            "metaroce " + (suite == null ? "(development build)" : suite),
            catalogue.spec() + " " + catalogue.specVersion() + ", wire version " + catalogue.wireVersion()
        };
    }
}
