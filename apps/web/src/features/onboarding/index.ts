export { OnboardingExtensionPage, OnboardingPage, OnboardingProxyPage } from './onboarding-pages.tsx';
