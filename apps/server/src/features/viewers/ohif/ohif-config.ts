// The built-in OHIF's app-config.js, written by the server (never the package's own, which points at
// a public demo archive): one DICOMweb data source, the RIS's per-study proxy, and nothing that loads
// configuration, customizations or data from a URL.

/** OHIF's window.config for a RIS whose public URL is `publicUrl` (no trailing slash). */
export function ohifConfig(publicUrl: string, dicomWebPrefix: string): Record<string, unknown> {
  const root = `${publicUrl}${dicomWebPrefix}`;
  return {
    name: 'ris',
    routerBasename: '/viewer',
    extensions: [],
    modes: [],
    // No onboarding tour: the viewer opens on the image.
    customizationService: { global: { 'ohif.tours': { $set: [] } } },
    // The RIS opens one study at a time; its worklist is the study list.
    showStudyList: false,
    investigationalUseDialog: { option: 'never' },
    maxNumberOfWebWorkers: 3,
    showWarningMessageForCrossOrigin: false,
    showCPUFallbackMessage: true,
    showLoadingIndicator: true,
    strictZSpacingForVolumeViewport: true,
    maxNumRequests: { interaction: 100, thumbnail: 5, prefetch: 25 },
    showErrorDetails: 'production',
    defaultDataSourceName: 'ris',
    dataSources: [
      {
        namespace: '@ohif/extension-default.dataSourcesModule.dicomweb',
        sourceName: 'ris',
        configuration: {
          friendlyName: 'RIS',
          name: 'ris',
          qidoRoot: root,
          wadoRoot: root,
          wadoUriRoot: root,
          qidoSupportsIncludeField: true,
          imageRendering: 'wadors',
          thumbnailRendering: 'wadors',
          enableStudyLazyLoad: true,
          supportsFuzzyMatching: false,
          supportsWildcard: false,
          staticWado: false,
          singlepart: 'bulkdata,video',
          bulkDataURI: { enabled: true, relativeResolution: 'studies' },
          omitQuotationForMultipartRequest: true,
        },
      },
    ],
  };
}

/** The app-config.js script that sets window.config (JSON, so nothing in it is executable code). */
export function ohifConfigScript(publicUrl: string, dicomWebPrefix: string): string {
  return `/** Written by the RIS server (features/viewers/ohif). */\nwindow.config = ${JSON.stringify(
    ohifConfig(publicUrl, dicomWebPrefix),
    null,
    2,
  )};\n`;
}
